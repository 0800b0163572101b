import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInAs, type TestApp } from '../../testing/test-app';
import { buy, createAddress, createProduct, quote, startPayment, stockOf } from '../../testing/commerce';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

describe("a seller's own products (docs/rules/catalog-and-orders.md, Checkout and orders)", () => {
  it('are refused: the quote names the problem and cannot be paid, the payment is a 409', async () => {
    const seller = await signedInAs(t, 'seller', { firstName: 'Sam', lastName: 'Seller' });
    const sellerAddress = await createAddress(t, seller.id);
    const bike = await createProduct(t, seller.id, { name: 'Cobalt Bike', price: '1250.00', stock: 2 });
    const body = {
      items: [{ productId: bike.id, quantity: 1, expectedPrice: '1250.00' }],
      deliveryAddressId: sellerAddress.id,
    };

    const quoted = await quote(t, seller, body);
    expect(quoted.statusCode).toBe(200);
    expect(quoted.json()).toMatchObject({
      canPay: false,
      problems: [
        {
          code: 'own_product',
          message: 'You cannot buy your own product: Cobalt Bike',
          productId: bike.id,
          sellerId: seller.id,
          field: 'items',
        },
      ],
    });

    const paid = await startPayment(t, seller, body);
    expect(paid.statusCode).toBe(409);
    expect(paid.json()).toMatchObject({
      code: 'conflict',
      message: 'You cannot buy your own product: Cobalt Bike',
    });
    expect(await stockOf(t, bike.id)).toBe(2);
  });

  it('are refused even in a cart that also holds products of other sellers', async () => {
    const seller = await signedInAs(t, 'seller');
    const other = await signedInAs(t, 'seller');
    const address = await createAddress(t, seller.id);
    await createAddress(t, other.id);
    const own = await createProduct(t, seller.id, { name: 'Own Lamp' });
    const theirs = await createProduct(t, other.id, { name: 'Their Chair' });
    const paid = await startPayment(t, seller, {
      items: [
        { productId: theirs.id, quantity: 1 },
        { productId: own.id, quantity: 1 },
      ],
      deliveryAddressId: address.id,
    });
    expect(paid.statusCode).toBe(409);
    expect(paid.json().message).toBe('You cannot buy your own product: Own Lamp');
  });

  it('stay for sale to everyone else', async () => {
    const seller = await signedInAs(t, 'seller');
    await createAddress(t, seller.id);
    const bike = await createProduct(t, seller.id, { name: 'Mint Bike', stock: 3 });
    const buyer = await signedInAs(t, 'buyer');
    const address = await createAddress(t, buyer.id);
    const orders = await buy(t, buyer, {
      items: [{ productId: bike.id, quantity: 1 }],
      deliveryAddressId: address.id,
    });
    expect(orders).toHaveLength(1);
    expect(await stockOf(t, bike.id)).toBe(2);
  });
});
