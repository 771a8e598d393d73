import { useMutation } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { CATEGORY_TITLE_MAX, categoryErrors, freeColors, MAX_CATEGORIES, type Category } from './model';
import { categoryName } from '../../builtInNames';

type SubState = { kind: 'list' } | { kind: 'create' } | { kind: 'edit'; category: Category };

/** What a failed category write shows: the server's message. */
const failure = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

interface Props {
  categories: Category[];
  selected: number | null;
  readOnly: boolean;
  onSelect(c: Category): void;
  onCreate(label: string, color: string): Promise<unknown>;
  onUpdate(c: Category, label: string, color: string): Promise<unknown>;
  onDelete(c: Category): Promise<unknown>;
}

/** The category part of the annotation popup: list, create and edit sub-states (spec 2 §4); drawn again only when its props change. */
export const CategoryPanel = memo(function CategoryPanel(props: Props) {
  const [sub, setSub] = useState<SubState>({ kind: 'list' });
  // The form's save and the list's delete are TanStack mutations (issue 18 point 7); a form opens clean each time (its key).
  if (sub.kind !== 'list') return <CategoryForm key={sub.kind === 'edit' ? sub.category.label_id : 'new'} sub={sub} categories={props.categories} onCreate={props.onCreate} onUpdate={props.onUpdate} onDone={() => setSub({ kind: 'list' })} />;
  return <CategoryList {...props} onOpen={setSub} />;
});

/** Create or edit a category: its title and a colour no other category has. */
function CategoryForm({ sub, categories, onCreate, onUpdate, onDone }: { sub: Exclude<SubState, { kind: 'list' }>; categories: Category[]; onCreate: Props['onCreate']; onUpdate: Props['onUpdate']; onDone: () => void }) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(sub.kind === 'edit' ? sub.category.label : '');
  const [color, setColor] = useState<string | null>(sub.kind === 'edit' ? sub.category.color_code : null);
  const [errors, setErrors] = useState<string[]>([]);
  const [serverError, setServerError] = useState<string | null>(null);
  const saveMutation = useMutation({
    mutationFn: ({ label, colour }: { label: string; colour: string }) => (sub.kind === 'edit' ? onUpdate(sub.category, label, colour) : onCreate(label, colour)),
    onSuccess: onDone,
    onError: (err) => setServerError(failure(err)),
  });
  const colors = freeColors(categories, sub.kind === 'edit' ? sub.category.label_id : undefined);
  const save = () => {
    const found = categoryErrors(title, color);
    setErrors(found);
    if (found.length) return;
    saveMutation.mutate({ label: title.trim(), colour: color! });
  };
  return (
    <div className="category-form" data-testid="category-form">
      <label>
        {t('annotations.category.title')}
        <input value={title} maxLength={CATEGORY_TITLE_MAX + 5} onChange={(e) => setTitle(e.target.value)} data-testid="category-title" />
      </label>
      <div className="palette" role="radiogroup" aria-label={t('annotations.category.color')}>
        {colors.map((c) => (
          <button key={c} type="button" role="radio" aria-checked={color === c} className={`swatch${color === c ? ' swatch-on' : ''}`} style={{ background: c }} onClick={() => setColor(c)} title={c} data-testid="category-color" />
        ))}
      </div>
      {errors.map((e) => (
        <p key={e} className="field-error">{t(e as 'annotations.errors.title')}</p>
      ))}
      {serverError && <p className="field-error">{serverError}</p>}
      <div className="row">
        <button type="button" className="button" onClick={onDone}>{t('annotations.cancel')}</button>
        <button type="button" className="button button-primary" onClick={save} disabled={saveMutation.isPending} data-testid="category-save">{t('annotations.category.save')}</button>
      </div>
    </div>
  );
}

/** The categories to pick from; custom ones can be edited or deleted (after a confirmation). */
function CategoryList({ categories, selected, readOnly, onSelect, onDelete, onOpen }: Props & { onOpen: (s: SubState) => void }) {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState<Category | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const deleteMutation = useMutation({
    mutationFn: (c: Category) => onDelete(c),
    onError: (err) => setServerError(failure(err)),
  });
  return (
    <div className="category-list" data-testid="category-list">
      {serverError && <p className="field-error" role="alert">{serverError}</p>}
      {categories.map((c) => (
        <div key={c.label_id} className={`category-item${selected === c.label_id ? ' category-on' : ''}`}>
          <button type="button" className="category-pick" onClick={() => onSelect(c)} disabled={readOnly} data-testid="category-option">
            <span className="swatch" style={{ background: c.color_code }} aria-hidden="true" />
            {categoryName(t, c)}
          </button>
          {!readOnly && c.type === 'custom' && (
            <>
              <button type="button" className="icon-button" onClick={() => onOpen({ kind: 'edit', category: c })} aria-label={t('annotations.category.edit')}>✎</button>
              <button type="button" className="icon-button" onClick={() => setDeleting(c)} aria-label={t('annotations.category.delete')} data-testid="category-delete">×</button>
            </>
          )}
        </div>
      ))}
      {/* Spec 2 §5: the create link is hidden once there are 12 categories. */}
      {!readOnly && categories.length < MAX_CATEGORIES && (
        <button type="button" className="link-button" onClick={() => onOpen({ kind: 'create' })} data-testid="category-create">
          {t('annotations.category.create')}
        </button>
      )}
      <ConfirmDialog
        open={deleting !== null}
        message={t('annotations.category.confirmDelete')}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const c = deleting!;
          setDeleting(null);
          deleteMutation.mutate(c);
        }}
      />
    </div>
  );
}
