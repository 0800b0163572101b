import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../../testing/test-app';
import { addresses, products } from '../../db/schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const seller = await createUser(t, { roles: ['buyer', 'seller'], firstName: 'Sal', lastName: 'Vendor' });
  await t.database.db.insert(addresses).values({
    userId: seller.id,
    addressLine1: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
    isPrimary: true,
  });
  await t.database.db.insert(products).values([
    { sellerId: seller.id, name: 'Oak Table', price: '120.5', category: 'Furniture', stock: 2 },
    { sellerId: seller.id, name: 'Table Lamp', price: '30', category: 'Home & Garden', stock: 0 },
    { sellerId: seller.id, name: '50% Off Chair', price: '45.00', category: 'Furniture', stock: 1 },
    {
      sellerId: seller.id,
      name: 'Retired Table',
      price: '10.00',
      category: 'Furniture',
      stock: 5,
      available: false,
    },
  ]);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const names = (body: { name: string }[]) => body.map((p) => p.name).sort();

describe('GET /api/products', () => {
  it('lists available products only, with the seller details the cards show', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/products' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(names(body)).toEqual(['50% Off Chair', 'Oak Table', 'Table Lamp']);
    expect(body.find((p: { name: string }) => p.name === 'Oak Table')).toMatchObject({
      price: '120.50',
      sellerName: 'Sal Vendor',
      sellerCity: 'Springfield',
      sellerState: 'IL',
      sellerRating: null,
      distance: null,
    });
  });

  it('searches names case-insensitively and filters by exact category', async () => {
    const search = await t.app.inject({ method: 'GET', url: '/api/products?search=TABLE' });
    expect(names(search.json())).toEqual(['Oak Table', 'Table Lamp']);
    const category = await t.app.inject({ method: 'GET', url: '/api/products?category=Furniture' });
    expect(names(category.json())).toEqual(['50% Off Chair', 'Oak Table']);
    const all = await t.app.inject({ method: 'GET', url: '/api/products?category=All' });
    expect(all.json()).toHaveLength(3);
  });

  it('treats % and _ in a search as plain text', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/products?search=${encodeURIComponent('50%')}`,
    });
    expect(names(response.json())).toEqual(['50% Off Chair']);
    const underscore = await t.app.inject({ method: 'GET', url: '/api/products?search=_' });
    expect(underscore.json()).toEqual([]);
  });

  it('pages in the database and refuses a bad page size', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/products?limit=2&offset=0' });
    const second = await t.app.inject({ method: 'GET', url: '/api/products?limit=2&offset=2' });
    expect(first.json()).toHaveLength(2);
    expect(second.json()).toHaveLength(1);
    const bad = await t.app.inject({ method: 'GET', url: '/api/products?limit=5000' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(['limit']);
  });
});

describe('GET /api/categories', () => {
  it('lists the categories by name', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/categories' });
    const list = response.json() as { name: string }[];
    expect(list.map((c) => c.name)).toContain('Electronics');
    expect(list.map((c) => c.name)).toEqual([...list.map((c) => c.name)].sort((a, b) => a.localeCompare(b)));
  });
});
