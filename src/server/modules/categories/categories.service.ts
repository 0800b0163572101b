import type { Db } from '../../db/client';
import { conflict, notFound } from '../../platform/errors';
import type { Actor } from '../../platform/sessions';
import type { Category } from '../../../domain/categories';
import { recordAdminAction } from '../audit/audit.service';
import { renameCategoryOnProducts } from '../products/products.service';
import {
  countProductsInCategory,
  deleteCategory,
  findCategoryForUpdate,
  insertCategory,
  listCategoryNames,
  lockCategoryNames,
  renameCategory,
  type CategoryRow,
} from './categories.queries';
import { findLookAlike } from './category-names';

/**
 * Categories are managed by admins (docs/rules/known-differences.md, Admin; the routes declare the role):
 * names trimmed and without invisible characters (by the body schema), not empty, and unlike every
 * other category's name: not the same whatever its case, nor a look-alike of it
 * (`category-names.ts`; docs/rules/running.md, Bad input and failure). Each change is recorded in the
 * audit trail inside its own transaction.
 */

export const CATEGORY_NOT_FOUND = 'Category not found';

const toCategory = (row: CategoryRow): Category => ({ id: row.id, name: row.name });

function duplicate(name: string) {
  return conflict(`A category named "${name}" already exists`);
}

/** "1 product uses" / "3 products use". */
function inUse(name: string, products: number) {
  const uses = products === 1 ? '1 product uses' : `${products} products use`;
  return conflict(`${uses} the category "${name}". Move them to another category before deleting it.`);
}

/** POST /api/categories. A duplicate (any case) or a look-alike of another name is a 409. */
export async function createCategory(db: Db, actor: Actor, name: string, now: Date): Promise<Category> {
  return db.transaction(async (tx) => {
    await lockCategoryNames(tx);
    const existing = findLookAlike(await listCategoryNames(tx), name);
    if (existing) throw duplicate(existing.name);
    const row = await insertCategory(tx, name, now);
    await recordAdminAction(tx, actor, {
      action: 'category.created',
      target: { type: 'category', id: row.id, label: row.name },
      before: null,
      after: { name: row.name },
      now,
    });
    return toCategory(row);
  });
}

/**
 * PATCH /api/categories/{id}. Products store the category's name, so they are renamed in the same
 * transaction. Another category of the same name (any case) or a look-alike of it is a 409; a name
 * that reads like the category's own (a change of case) is allowed.
 */
export async function updateCategory(
  db: Db,
  actor: Actor,
  id: string,
  name: string,
  now: Date,
): Promise<Category> {
  return db.transaction(async (tx) => {
    // The names' lock first, then the row's, as every create and rename takes them.
    await lockCategoryNames(tx);
    const current = await findCategoryForUpdate(tx, id);
    if (!current) throw notFound(CATEGORY_NOT_FOUND);
    if (current.name === name) return toCategory(current);
    const clash = findLookAlike(await listCategoryNames(tx), name, id);
    if (clash) throw duplicate(clash.name);
    const row = await renameCategory(tx, id, name, now);
    const renamedProducts = await renameCategoryOnProducts(tx, current.name, name);
    await recordAdminAction(tx, actor, {
      action: 'category.renamed',
      target: { type: 'category', id, label: name },
      before: { name: current.name },
      after: { name, products: String(renamedProducts) },
      now,
    });
    return toCategory(row);
  });
}

/** DELETE /api/categories/{id}: refused (409, with how many) while products use it. */
export async function removeCategory(db: Db, actor: Actor, id: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await findCategoryForUpdate(tx, id);
    if (!current) throw notFound(CATEGORY_NOT_FOUND);
    const products = await countProductsInCategory(tx, current.name);
    if (products > 0) throw inUse(current.name, products);
    await deleteCategory(tx, id);
    await recordAdminAction(tx, actor, {
      action: 'category.deleted',
      target: { type: 'category', id, label: current.name },
      before: { name: current.name },
      after: null,
      now,
    });
  });
}
