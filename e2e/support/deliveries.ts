import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures';
import { makePng } from './png';

/** Uploads a picture through the API as the uploader would, and answers its object path. */
export async function uploadPicture(
  request: APIRequestContext,
  colour: [number, number, number] = [40, 140, 90],
): Promise<string> {
  const asked = await request.post('/api/objects/upload', { data: {} });
  expect(asked.status(), await asked.text()).toBe(200);
  const { uploadURL, objectPath } = (await asked.json()) as { uploadURL: string; objectPath: string };
  const put = await request.put(uploadURL, {
    data: makePng(16, colour),
    headers: { 'content-type': 'image/png' },
  });
  expect(put.status(), await put.text()).toBe(200);
  return objectPath;
}

/**
 * The assigned driver marks an order delivered with a drop-off photo, the proof a standard order
 * needs by default (docs/rules/deliveries.md, Deliveries).
 */
export async function deliverWithPhoto(request: APIRequestContext, orderId: string): Promise<void> {
  const dropOffPhotoUrl = await uploadPicture(request);
  const delivered = await request.post(`/api/orders/${orderId}/deliver`, { data: { dropOffPhotoUrl } });
  expect(delivered.status(), await delivered.text()).toBe(200);
}
