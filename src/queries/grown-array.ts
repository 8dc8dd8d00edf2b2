/** `array` copied into a new typed array of the same kind with `size` entries (the rest zero). */
export function grown<T extends Int32Array | Float64Array>(array: T, size: number): T {
  const next = new (array.constructor as new (size: number) => T)(size);
  next.set(array);
  return next;
}
