/** Text order by code point, as the store's binary ORDER BY sorts: the same on every machine and locale. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
