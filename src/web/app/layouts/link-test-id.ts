import type { RoleLink } from '@domain/roles';

/** "My Orders" -> "link-my-orders", the test ids end-to-end tests look for. */
export function testIdForLink(link: RoleLink): string {
  return `link-${link.label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}
