import type { ProductListItem } from '@domain/catalog';
import { toast } from '../../components/ui/use-toast';
import { canAddOne, cartStore, type CartProduct } from './cart-store';

/** The cart keeps the product's own fields, not the seller details of a list row. */
export function toCartProduct(product: ProductListItem): CartProduct {
  return {
    id: product.id,
    name: product.name,
    price: product.price,
    sellerId: product.sellerId,
    sellerName: product.sellerName,
    category: product.category,
    description: product.description,
    imageUrl: product.imageUrl,
    available: product.available,
    stock: product.stock,
    requiresTrailer: product.requiresTrailer,
    sellerDelivery: product.sellerDelivery,
    sellerDeliveryFee: product.sellerDeliveryFee,
    offerPickup: product.offerPickup,
  };
}

/**
 * Puts one unit in the cart and says so; when the cart already holds all of the stock the catalog
 * reported, says that instead (docs/rules/screens-buyer.md, Cart and checkout screens).
 */
export function addProductToCart(product: ProductListItem): void {
  const item = toCartProduct(product);
  if (!canAddOne(cartStore.getSnapshot(), item)) {
    toast({
      title: 'No more in stock',
      description: `Only ${product.stock} of ${product.name} in stock, and all of them are in your cart.`,
    });
    return;
  }
  cartStore.add(item);
  toast({ title: 'Added to cart', description: `${product.name} has been added to your cart.` });
}
