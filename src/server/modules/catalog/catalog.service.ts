import type { Db } from '../../db/client';
import type { ProductListItem, ProductListQuery } from '../../../domain/catalog';
import { displayName, type Role } from '../../../domain/roles';
import { listAvailableProducts, listCategories } from './catalog.queries';
import type { Category } from '../../../domain/categories';

export function getCategories(db: Db): Promise<Category[]> {
  return listCategories(db);
}

const money = (value: string | null) => (value === null ? null : Number(value).toFixed(2));

export async function browseProducts(db: Db, query: ProductListQuery): Promise<ProductListItem[]> {
  const rows = await listAvailableProducts(db, query);
  return rows.map(({ product, ...seller }) => ({
    id: product.id,
    sellerId: product.sellerId,
    name: product.name,
    description: product.description,
    price: Number(product.price).toFixed(2),
    imageUrl: product.imageUrl,
    category: product.category,
    stock: product.stock,
    available: product.available,
    requiresTrailer: product.requiresTrailer,
    sellerDelivery: product.sellerDelivery,
    sellerDeliveryFee: money(product.sellerDeliveryFee),
    offerPickup: product.offerPickup,
    createdAt: product.createdAt.toISOString(),
    sellerName: displayName({
      firstName: seller.sellerFirstName,
      lastName: seller.sellerLastName,
      role: 'seller' as Role,
    }),
    sellerRating: seller.sellerRating === null ? null : Math.round(Number(seller.sellerRating) * 10) / 10,
    sellerCity: seller.sellerCity,
    sellerState: seller.sellerState,
    distance: null,
  }));
}
