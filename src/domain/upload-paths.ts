/**
 * The address of an upload (docs/rules/selling.md, Uploads and who sees a file). No zod here: the
 * browser's first load uses these (docs/decisions/0014-first-load.md, Resized copies).
 */
export const OBJECT_PATH_PATTERN =
  /^\/objects\/uploads\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The stable address of an upload, the value stored in imageUrl fields. */
export function objectPathOf(uploadId: string): string {
  return `/objects/uploads/${uploadId}`;
}

/** The upload id inside an object path, or null when the text is not one. */
export function uploadIdOfObjectPath(objectPath: string): string | null {
  return OBJECT_PATH_PATTERN.exec(objectPath)?.[1] ?? null;
}
