import * as z from 'zod/mini';

export const categorySchema = z.object({ id: z.string(), name: z.string() });
export type Category = z.infer<typeof categorySchema>;

/** Categories of a new marketplace (docs/rules/running.md, Running modes and adapters: demo data). */
export const DEFAULT_CATEGORIES = [
  'Electronics',
  'Furniture',
  'Home & Garden',
  'Groceries',
  'Clothing',
  'Tools & Hardware',
  'Sports & Outdoors',
  'Building Materials',
  'Books',
  'Toys & Games',
] as const;
