import { useState, type FormEvent } from 'react';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { categoryNameSchema, type AdminCategory } from '@domain/admin';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useAdminCategories } from '../api/get-admin-categories';
import { useCreateCategory, useDeleteCategory, useRenameCategory } from '../api/save-category';
import { useListFilters } from '../use-list-filters';
import { ListToolbar, PagedList } from './list-parts';

/** The name as the server will keep it, or the reason it cannot be (trimmed, not empty). */
function checkName(text: string): { name: string } | { error: string } {
  const parsed = categoryNameSchema.safeParse(text);
  return parsed.success
    ? { name: parsed.data }
    : { error: parsed.error.issues[0]?.message ?? 'Invalid name' };
}

const productsText = (count: number) => (count === 1 ? '1 product' : `${count} products`);

function AddCategoryForm() {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const create = useCreateCategory({
    onDone: (category) => {
      setName('');
      toast({ title: 'Category added', description: `"${category.name}" was added.` });
    },
    onFailed: (failure) =>
      toastMutationError(failure, 'Failed to create category', { appendServerMessage: true }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkName(name);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    setError(undefined);
    create.mutate(checked.name);
  };
  return (
    <form onSubmit={submit} className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
      <FormField id="new-category" label="New category" error={error} className="flex-1">
        {(control) => (
          <Input
            {...control}
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="e.g. Garden Tools"
            maxLength={100}
          />
        )}
      </FormField>
      <Button type="submit" className="sm:mt-7" disabled={create.isPending}>
        <Plus aria-hidden="true" />
        {create.isPending ? 'Adding...' : 'Add Category'}
      </Button>
    </form>
  );
}

function CategoryRow({ category }: { category: AdminCategory }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(category.name);
  const [error, setError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const rename = useRenameCategory({
    onDone: (renamed) => {
      setEditing(false);
      toast({ title: 'Category renamed', description: `"${category.name}" is now "${renamed.name}".` });
    },
    onFailed: (failure) =>
      toastMutationError(failure, 'Failed to update category', { appendServerMessage: true }),
  });
  const remove = useDeleteCategory({
    onDone: () => {
      setConfirming(false);
      toast({ title: 'Category deleted', description: `"${category.name}" was deleted.` });
    },
    onFailed: (failure) => {
      setConfirming(false);
      toastMutationError(failure, 'Failed to delete category', { appendServerMessage: true });
    },
  });
  const inputId = `rename-category-${category.id}`;
  const usedId = `category-used-${category.id}`;
  const isUsed = category.productCount > 0;

  const save = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkName(name);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    setError(undefined);
    rename.mutate({ id: category.id, name: checked.name });
  };

  return (
    <li className="flex flex-col gap-3 border-b py-3 last:border-b-0 sm:flex-row sm:items-center">
      {editing ? (
        <form onSubmit={save} className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-start" noValidate>
          <FormField
            id={inputId}
            label={`New name for ${category.name}`}
            error={error}
            className="flex-1 [&>label]:sr-only"
          >
            {(control) => (
              <Input
                {...control}
                value={name}
                onChange={(event) => setName(event.target.value)}
                maxLength={100}
                autoFocus
              />
            )}
          </FormField>
          <div className="flex gap-2">
            <Button type="submit" size="sm" className="h-10" disabled={rename.isPending}>
              {rename.isPending ? 'Saving...' : 'Save'}
            </Button>
            <Button
              type="button"
              size="sm"
              variant="outline"
              className="h-10"
              onClick={() => {
                setEditing(false);
                setName(category.name);
                setError(undefined);
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <>
          <div className="flex min-w-0 flex-1 flex-col">
            <span className="font-medium break-words">{category.name}</span>
            <span id={usedId} className="text-xs text-muted-foreground">
              {isUsed ? `Used by ${productsText(category.productCount)}` : 'No products'}
            </span>
          </div>
          <div className="flex gap-2">
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                setName(category.name);
                setEditing(true);
              }}
              aria-label={`Rename ${category.name}`}
            >
              <Pencil aria-hidden="true" />
              Rename
            </Button>
            <Button
              size="sm"
              variant="outline"
              className="text-destructive hover:text-destructive"
              onClick={() => setConfirming(true)}
              disabled={isUsed}
              aria-describedby={usedId}
              aria-label={`Delete ${category.name}`}
            >
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
          </div>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this category?"
        description={`"${category.name}" will be removed from the marketplace. This cannot be undone.`}
        cancelLabel="Keep Category"
        confirmLabel="Delete Category"
        pendingLabel="Deleting..."
        isPending={remove.isPending}
        onConfirm={() => remove.mutate(category.id)}
      />
    </li>
  );
}

/**
 * Categories (docs/rules/screens-work.md, Admin screens): add, rename (its products follow) and delete
 * (after a confirmation; refused while products use it). Names are trimmed and must not be empty.
 */
export function CategoriesTab() {
  const list = useListFilters({});
  const categories = useAdminCategories({ search: list.search, page: list.page });
  return (
    <div>
      <AddCategoryForm />
      <ListToolbar
        list={list}
        search={{ id: 'category-search', label: 'Search categories', placeholder: 'Search categories' }}
      />
      <PagedList
        query={categories}
        emptyText="No categories found"
        what="categories"
        onPageChange={list.setPage}
        isSearchPending={list.isSearchPending}
      >
        {(items) => (
          <ul className="rounded-lg border px-4" aria-label="Categories">
            {items.map((category) => (
              <CategoryRow key={`${category.id}-${category.name}`} category={category} />
            ))}
          </ul>
        )}
      </PagedList>
    </div>
  );
}
