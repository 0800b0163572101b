// How `npm start` runs the server (bench/startup-memory.bench.mjs runs it the same way); see
// docs/decisions/0016-embedded-database-process.md, Memory.
export const SERVER_NODE_FLAGS = [
  '--enable-source-maps',
  // A young generation of 2 × 2 MB instead of up to 2 × 16 MB: the server's requests make small,
  // short-lived objects, and the smaller nursery keeps megabytes off its resident memory.
  '--max-semi-space-size=2',
];

/** glibc returns large freed blocks to the kernel instead of keeping them resident. */
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '32768' };
