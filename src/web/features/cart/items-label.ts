/** "1 item", "3 items": the cart button's name and the panel's heading say how many. */
export function itemsLabel(count: number): string {
  return count === 1 ? '1 item' : `${count} items`;
}
