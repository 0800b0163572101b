/** Spec buyer §5 and seller §4: a product can be bought when it is available and in stock. */
export function isPurchasable(product: { available: boolean; stock: number }): boolean {
  return product.available && product.stock > 0;
}
