// How `npm start` runs the server (bench/startup-memory.bench.mjs runs it the same way); see
// docs/decisions/0016-embedded-database-process.md, Memory.
export const SERVER_NODE_FLAGS = [
  '--enable-source-maps',
  // A young generation of 2 × 2 MB instead of up to 2 × 16 MB: the server's requests make small,
  // short-lived objects, and the smaller nursery keeps megabytes off its resident memory.
  '--max-semi-space-size=2',
  // The old generation may grow to 1.5 × what survived its last full collection, not up to 4 ×:
  // rendering pages makes megabytes of garbage a request, and V8 otherwise kept growing the heap
  // to hold it (after 600 signed-in pages: 206 MB; 124 MB with this; 114 MB with 1.2 ×, which
  // collected so often that checkouts a second fell by a fifth or more).
  '--heap-growing-percent=50',
];

/** glibc returns large freed blocks to the kernel instead of keeping them resident. */
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '32768' };
