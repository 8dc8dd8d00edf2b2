-- Port of db/006_provenance.sql (the prompt, server version and catalog behind every decision); see README.md.
CREATE TABLE prompts (
  hash TEXT COLLATE "C" PRIMARY KEY,
  text TEXT COLLATE "C" NOT NULL
);

ALTER TABLE decisions ADD COLUMN prompt_hash TEXT COLLATE "C" REFERENCES prompts(hash);
ALTER TABLE decisions ADD COLUMN server_version TEXT COLLATE "C";
ALTER TABLE decisions ADD COLUMN catalog_fingerprint TEXT COLLATE "C";
