// How `npm start` runs the server (bench/startup-memory.bench.mjs runs it the same way); see
// docs/decisions/0016-embedded-database-process.md, Memory.
export const SERVER_NODE_FLAGS = [
  '--enable-source-maps',
  // A young generation of 2 × 2 MB instead of up to 2 × 16 MB: the server's requests make small,
  // short-lived objects, and the smaller nursery keeps megabytes off its resident memory.
  '--max-semi-space-size=2',
  // The old generation may grow to 1.2 × what survived its last full collection, not up to 4 ×:
  // rendering pages makes megabytes of garbage a request, and V8 otherwise kept growing the heap
  // to hold it (about 205 MB instead of 114 after 600 signed-in pages, at the same CPU a page).
  '--heap-growing-percent=20',
];

/** glibc returns large freed blocks to the kernel instead of keeping them resident. */
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '32768' };
