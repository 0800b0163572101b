// Fills a migrated, empty marketplace database with ten times a busy town's data, for
// bench/scale.bench.mjs: the catalog bench's fill (bench/catalog-fill.mjs) scaled to 20,000 sellers
// and 1,000,000 products, 2,000 buyers, then 10,000 verified drivers living over the same metro area
// and 100,000 orders: most delivered by a driver over the past year (each reviewed), 5,000 waiting
// for a driver (the offers), 5,000 on their way. Plain SQL, deterministic, PostgreSQL and PGlite.
import { catalogFillStatements, METRO_CENTER, METRO_RADIUS_MILES } from './catalog-fill.mjs';
import { md5Uuid, uuidOf } from './bench-ids.mjs';

export const SCALE = {
  sellers: 20_000,
  products: 1_000_000,
  buyers: 2_000,
  drivers: 10_000,
  orders: 100_000,
  /** Of the orders: waiting for a driver (offered to drivers), and assigned or in transit. */
  offered: 5_000,
  underway: 5_000,
};

export const driverId = (i) => md5Uuid(`bench-driver-${i}`);

/** A driver's name's and email's shape, for the admin's searches. */
export const driverEmail = (i) => `bench-driver-${i}@example.com`;

/** The statements, in order. */
export function scaleFillStatements(scale = SCALE) {
  const { sellers, products, buyers, drivers, orders, offered, underway } = scale;
  const delivered = orders - offered - underway;
  const { latitude: lat0, longitude: lng0 } = METRO_CENTER;
  const milesPerDegreeLng = 69.09 * Math.cos((lat0 * Math.PI) / 180);
  const seller = (expr) => uuidOf(`'bench-seller-' || (${expr})`);
  const buyer = (expr) => uuidOf(`'bench-buyer-' || (${expr})`);
  const driver = (expr) => uuidOf(`'bench-driver-' || (${expr})`);
  return [
    ...catalogFillStatements({ sellers, products, buyers, orders: delivered }).filter((s) => s !== 'analyze'),
    // Drivers: verified, both documents on file, one in five with a trailer.
    `insert into users (id, email, first_name, last_name, role, roles, is_verified,
                        vehicle_image_url, license_image_url, trailer_image_url)
     select ${driver('i')}, 'bench-driver-' || i || '@example.com', 'Driver', 'Number ' || i,
            'driver', ARRAY['buyer','driver']::text[], true,
            '/objects/uploads/bench-vehicle-' || i, '/objects/uploads/bench-license-' || i,
            case when i % 5 = 0 then '/objects/uploads/bench-trailer-' || i else null end
     from generate_series(1, ${drivers}) i`,
    `insert into addresses (user_id, address_line1, city, state, zip_code, latitude, longitude, is_verified, is_primary)
     select u.id, (500 + n) || ' N Driver Ave', 'Chicago', 'IL', '606' || lpad((n % 60)::text, 2, '0'),
            round((${lat0} + r * cos(t) / 69.09)::numeric, 7),
            round((${lng0} + r * sin(t) / ${milesPerDegreeLng})::numeric, 7), true, true
     from (select id, row_number() over (order by email) as n,
                  ${METRO_RADIUS_MILES} * sqrt(random()) as r, 2 * pi() * random() as t
           from users where email like 'bench-driver-%') u`,
    // The delivered orders: each carried by a driver, placed over the past year.
    `update orders set driver_id = ${driver(`1 + (substr(order_number, 7)::int * 31) % ${drivers}`)},
                       created_at = now() - random() * interval '365 days'
     where order_number like 'BENCH-%'`,
    // Waiting for a driver, then underway: from a seller's pickup address to a buyer's address, placed
    // over the past two days; one in ten needs a trailer.
    `insert into orders (id, buyer_id, seller_id, order_number, status, driver_id, requires_trailer,
                         product_subtotal, delivery_fee, total, delivery_address, delivery_address_id,
                         pickup_address_id, seller_earnings, driver_earnings, purchase_platform_fee,
                         delivery_platform_fee, platform_fee, created_at)
     select ${uuidOf("'bench-open-order-' || i")}, b.user_id, s.user_id, 'BENCH-OPEN-' || i,
            case when i <= ${offered} then 'pending' when i % 2 = 0 then 'assigned' else 'in-transit' end,
            case when i <= ${offered} then null else ${driver(`1 + (i * 17) % ${drivers}`)} end,
            i % 10 = 0, 100.00, 12.00, 112.00,
            b.address_line1 || ', ' || b.city || ', ' || b.state || ' ' || b.zip_code, b.id, s.id,
            90.00, 10.80, 10.00, 1.20, 11.20, now() - random() * interval '2 days'
     from generate_series(1, ${offered + underway}) i
     join addresses s on s.user_id = ${seller(`1 + (i * 7) % ${sellers}`)} and s.is_primary
     join addresses b on b.user_id = ${buyer(`1 + (i * 3) % ${buyers}`)} and b.is_primary`,
    // One to three of the seller's own products in each open order (product k is seller 1 + k % sellers's).
    `insert into order_items (order_id, product_id, quantity, price)
     select o.id, ${uuidOf(`'bench-product-' || (s.n - 1 + ${sellers} * (1 + j))`)}, 1 + (j + s.n) % 3, 25.00
     from orders o
     cross join lateral (select split_part(substr(u.email, 14), '@', 1)::int as n
                           from users u where u.id = o.seller_id) s
     cross join generate_series(0, 2) j
     where o.order_number like 'BENCH-OPEN-%' and j <= substr(o.order_number, 12)::int % 3`,
    // A database that has run a while has been vacuumed: its index-only scans need not visit the table.
    `vacuum analyze`,
  ];
}
