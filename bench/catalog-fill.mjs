// Fills a migrated, empty marketplace database with the catalog benchmark's data: 2,000 sellers
// spread over the Chicago metro area, 100,000 products, 200 buyers, and 20,000 delivered orders with
// a review of their seller each (so the cards' rating is computed over real rows), the categories,
// and a weekly pickup schedule for every seller. Plain SQL with generate_series, deterministic
// (md5-based ids, setseed), the same on PostgreSQL and PGlite.
import { md5Uuid, uuidOf } from './bench-ids.mjs';

export const METRO_CENTER = { latitude: 41.8781, longitude: -87.6298 };
/** Sellers lie within this many miles of the centre, uniformly over the disc. */
export const METRO_RADIUS_MILES = 40;

const NOUNS = [
  ['Chair', 'Furniture'],
  ['Table', 'Furniture'],
  ['Bookshelf', 'Furniture'],
  ['Sofa', 'Furniture'],
  ['Headphones', 'Electronics'],
  ['Speaker', 'Electronics'],
  ['Monitor', 'Electronics'],
  ['Planter', 'Home & Garden'],
  ['Lamp', 'Home & Garden'],
  ['Coffee Beans', 'Groceries'],
  ['Honey', 'Groceries'],
  ['Jacket', 'Clothing'],
  ['Sweater', 'Clothing'],
  ['Drill', 'Tools & Hardware'],
  ['Wrench Set', 'Tools & Hardware'],
  ['Tent', 'Sports & Outdoors'],
  ['Bicycle', 'Sports & Outdoors'],
  ['Lumber Bundle', 'Building Materials'],
  ['Paver Stones', 'Building Materials'],
  ['Cookbook', 'Books'],
  ['Novel', 'Books'],
  ['Puzzle', 'Toys & Games'],
  ['Board Game', 'Toys & Games'],
  ['Kite', 'Toys & Games'],
  ['Lantern', 'Sports & Outdoors'],
];
const ADJECTIVES = [
  'Rustic',
  'Modern',
  'Vintage',
  'Compact',
  'Deluxe',
  'Classic',
  'Handmade',
  'Portable',
  'Cozy',
  'Sturdy',
  'Walnut',
  'Oak',
  'Cedar',
  'Copper',
  'Linen',
  'Wool',
  'Solar',
  'Wireless',
  'Heirloom',
  'Urban',
];
const FIRST = ['Alex', 'Jordan', 'Taylor', 'Morgan', 'Casey', 'Riley', 'Jamie', 'Avery', 'Quinn', 'Parker'];
const LAST = ['Nguyen', 'Garcia', 'Smith', 'Kowalski', 'Okafor', 'Patel', 'Larsen', 'Moreno', 'Kim', 'Novak'];

/** The ids of the fill's rows, for calls that name one. */
export const sellerId = (i) => md5Uuid(`bench-seller-${i}`);
export const productId = (i) => md5Uuid(`bench-product-${i}`);

const text = (values) => `ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]::text[]`;

/** The statements, in order; `counts` scale the data (the defaults are the benchmark's). */
export function catalogFillStatements({
  sellers = 2000,
  products = 100_000,
  buyers = 200,
  orders = 20_000,
} = {}) {
  const { latitude: lat0, longitude: lng0 } = METRO_CENTER;
  const milesPerDegreeLng = 69.09 * Math.cos((lat0 * Math.PI) / 180);
  return [
    `select setseed(0.42)`,
    `insert into users (id, email, first_name, last_name, role, roles)
     select ${uuidOf("'bench-seller-' || i")}, 'bench-seller-' || i || '@example.com',
            (${text(FIRST)})[1 + i % ${FIRST.length}], (${text(LAST)})[1 + (i / ${FIRST.length}) % ${LAST.length}],
            'seller', ARRAY['buyer','seller']::text[]
     from generate_series(1, ${sellers}) i`,
    `insert into users (id, email, first_name, last_name, role, roles)
     select ${uuidOf("'bench-buyer-' || i")}, 'bench-buyer-' || i || '@example.com', 'Bench', 'Buyer ' || i,
            'buyer', ARRAY['buyer']::text[]
     from generate_series(1, ${buyers}) i`,
    // Uniform over a disc of METRO_RADIUS_MILES; one seller in fifty has no coordinates.
    `insert into addresses (user_id, address_line1, city, state, zip_code, latitude, longitude, is_verified, is_primary)
     select u.id, (100 + n) || ' W Bench St', 'Chicago', 'IL', '606' || lpad((n % 60)::text, 2, '0'),
            case when n % 50 = 0 then null else round((${lat0} + r * cos(t) / 69.09)::numeric, 7) end,
            case when n % 50 = 0 then null else round((${lng0} + r * sin(t) / ${milesPerDegreeLng})::numeric, 7) end,
            n % 50 <> 0, true
     from (select id, row_number() over (order by email) as n,
                  ${METRO_RADIUS_MILES} * sqrt(random()) as r, 2 * pi() * random() as t
           from users where email like 'bench-%') u`,
    `insert into products (id, seller_id, name, description, price, category, stock, available,
                           requires_trailer, seller_delivery, seller_delivery_fee, offer_pickup, created_at, updated_at)
     select ${uuidOf("'bench-product-' || i")},
            ${uuidOf(`'bench-seller-' || (1 + i % ${sellers})`)},
            (${text(ADJECTIVES)})[1 + (i * 7) % ${ADJECTIVES.length}] || ' ' || (${text(NOUNS.map((n) => n[0]))})[1 + i % ${NOUNS.length}],
            'A well-made item from a local seller, in good condition and ready to go.',
            round((5 + random() * 495)::numeric, 2),
            (${text(NOUNS.map((n) => n[1]))})[1 + i % ${NOUNS.length}],
            (random() * 20)::int, random() > 0.05,
            (${text(NOUNS.map((n) => n[1]))})[1 + i % ${NOUNS.length}] in ('Furniture', 'Building Materials') and random() < 0.5,
            i % 4 = 0, case when i % 4 = 0 then 7.50 else null end, i % 3 = 0,
            now() - random() * interval '365 days', now()
     from generate_series(1, ${products}) i`,
    `insert into orders (id, buyer_id, seller_id, order_number, status, product_subtotal, delivery_fee, total,
                         delivery_address, seller_earnings, driver_earnings, purchase_platform_fee,
                         delivery_platform_fee, platform_fee)
     select ${uuidOf("'bench-order-' || i")}, ${uuidOf(`'bench-buyer-' || (1 + i % ${buyers})`)},
            ${uuidOf(`'bench-seller-' || (1 + (i * 13) % ${sellers})`)}, 'BENCH-' || i, 'delivered',
            100.00, 10.00, 110.00, '1 Bench Rd, Chicago, IL 60601', 90.00, 9.00, 10.00, 1.00, 11.00
     from generate_series(1, ${orders}) i`,
    `insert into reviews (order_id, reviewer_id, reviewee_id, reviewer_role, reviewee_role, rating, comment)
     select o.id, o.buyer_id, o.seller_id, 'buyer', 'seller', 1 + least(4, floor(random() * 6))::int, 'Great seller'
     from orders o where o.order_number like 'BENCH-%'`,
    `insert into categories (name) select distinct unnest(${text(NOUNS.map((n) => n[1]))})`,
    // Pickup times: every seller from 9 to 5 on weekdays and 10 to 2 on Saturdays.
    `insert into availability_schedules (user_id, day_of_week, start_time, end_time)
     select u.id, d, case when d = 6 then '10:00' else '09:00' end, case when d = 6 then '14:00' else '17:00' end
     from users u cross join generate_series(1, 6) d where u.email like 'bench-seller-%'`,
    `analyze`,
  ];
}
