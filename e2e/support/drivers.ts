import type { APIRequestContext, Browser } from '@playwright/test';
import { DEMO, expect, signInAs } from './fixtures';
import { getJson, someoneElse } from './people';
import { makePng } from './png';

/** A town of the demo's state but far from its sellers: offers made here are this test's own. */
export interface Place {
  addressLine1: string;
  city: string;
  state: string;
  zipCode: string;
}

export const SPRINGFIELD: Place = {
  addressLine1: '1 Capitol Ave',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
};

async function addPrimaryAddress(request: APIRequestContext, place: Place): Promise<string> {
  const response = await request.post('/api/addresses', { data: place });
  expect(response.status(), await response.text()).toBe(201);
  const addresses = await getJson<{ id: string; isPrimary: boolean }[]>(request, '/api/addresses');
  const primary = addresses.find((row) => row.isPrimary)?.id;
  if (!primary) throw new Error('no primary address');
  return primary;
}

/** Uploads a small picture as this user and answers its object path. */
async function uploadPicture(request: APIRequestContext, colour: [number, number, number]): Promise<string> {
  const bytes = makePng(16, colour);
  const answer = await request.post('/api/objects/upload', {
    data: { contentType: 'image/png', size: bytes.length },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  const { uploadURL, objectPath } = (await answer.json()) as { uploadURL: string; objectPath: string };
  const put = await request.put(uploadURL, { data: bytes, headers: { 'content-type': 'image/png' } });
  expect(put.ok(), await put.text()).toBe(true);
  return objectPath;
}

/**
 * A new driver with a vehicle and a license image on file, approved by the demo admin, living at
 * `home`; the browser context is the caller's to close.
 */
export async function approvedDriver(browser: Browser, home: Place = SPRINGFIELD) {
  const driver = await someoneElse(browser, 'driver');
  await addPrimaryAddress(driver.request, home);
  for (const [kind, colour] of [
    ['vehicle', [30, 90, 200]],
    ['license', [200, 60, 40]],
  ] as const) {
    const imageUrl = await uploadPicture(driver.request, [...colour]);
    const saved = await driver.request.put(`/api/drivers/${kind}-image`, { data: { imageUrl } });
    expect(saved.status(), await saved.text()).toBe(200);
  }
  const adminContext = await browser.newContext();
  try {
    const admin = await adminContext.newPage();
    await signInAs(admin, DEMO.admin);
    const approved = await admin.request.patch(`/api/admin/drivers/${driver.id}/verify`, {
      data: { isVerified: true },
    });
    expect(approved.status(), await approved.text()).toBe(200);
  } finally {
    await adminContext.close();
  }
  return driver;
}

export interface PlacedOrder {
  id: string;
  orderNumber: string;
}

/**
 * A new seller at `place` with one product a driver delivers (named `productName`), and a new buyer
 * there who pays for `quantity` of it: an offer only drivers near `place` see first. Answers the
 * order and the buyer's browser (closed by the caller).
 */
export async function offerIn(
  browser: Browser,
  {
    place = SPRINGFIELD,
    productName,
    quantity = 1,
    requiresTrailer = false,
  }: {
    place?: Place;
    productName: string;
    quantity?: number;
    requiresTrailer?: boolean;
  },
) {
  const seller = await someoneElse(browser, 'seller');
  await addPrimaryAddress(seller.request, place);
  const created = await seller.request.post('/api/products', {
    data: { name: productName, price: '40.00', category: 'Furniture', stock: 10, requiresTrailer },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: productId } = (await created.json()) as { id: string };
  await seller.context.close();

  const buyer = await someoneElse(browser);
  const deliveryAddressId = await addPrimaryAddress(buyer.request, { ...place, addressLine1: '9 Elm St' });
  const payment = await buyer.request.post('/api/payments', {
    data: { items: [{ productId, quantity }], isPickup: false, deliveryAddressId },
  });
  expect(payment.status(), await payment.text()).toBe(201);
  const { paymentId } = (await payment.json()) as { paymentId: string };
  const confirmed = await buyer.request.post(`/api/payments/${paymentId}/confirm`, {
    data: { cardNumber: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Eve Tester' },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const { orders } = (await confirmed.json()) as { orders: PlacedOrder[] };
  const order = orders[0];
  if (!order) throw new Error('no order made');
  return { order, buyer };
}
