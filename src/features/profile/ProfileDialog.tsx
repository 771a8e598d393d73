import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCountriesQuery, queryKeys } from '../../api/hooks';
import { ApiError } from '../../api/errors';
import { errorText } from '../../api/messages';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { Field } from '../../ui/Field';
import {
  checkImageFile,
  chooseDivisor,
  lockedFields,
  PROFILE_LIMITS,
  RII_CATEGORIES,
  RII_DIVISORS,
  validateProfile,
  type ProfileErrors,
  type ProfileField,
  type ProfileForm,
} from '../../../contract/profile-rules';
import { profileApi, profileKeys, useAvatarUrl, useProfileQuery, useSpecialisationsQuery, type Profile } from './api';
import { countryName, localCountries } from '../../builtInNames';

type ImageChoice = { kind: 'keep' } | { kind: 'new'; file: File; preview: string } | { kind: 'remove' };

const formOf = (p: Profile): ProfileForm => ({
  first_name: p.first_name,
  last_name: p.last_name,
  email_id: p.email_id,
  secondary_emails: p.secondary_emails,
  ternary_email: p.ternary_email,
  phone: p.primary_phone_number,
  phone2: p.secondary_phone_number,
  phone3: p.other_phone_number,
  organisation_name: p.organisation_name,
  country: p.country,
  date_of_birth: p.date_of_birth,
  device_start_window: p.device_start_window,
  device_stop_window: p.device_stop_window,
  rii_parameters: p.rii_parameters,
});

const todayIso = () => new Date().toISOString().slice(0, 10);

/** The profile popup (spec 1 §2, §4, §5): read view, Edit, Save after validation and a 1 s delay, Cancel. */
export function ProfileDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const profile = useProfileQuery(open);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!open) setEditing(false);
  }, [open]);
  const p = profile.data;
  return (
    <Dialog
      open={open}
      wide
      title={editing ? t('profile.editTitle') : t('profile.title')}
      onClose={onClose}
      testId="profile-dialog"
      actions={
        !editing && (
          <>
            <button type="button" className="button" onClick={onClose} data-testid="profile-close">
              {t('profile.close')}
            </button>
            <button type="button" className="button button-primary" disabled={!p} onClick={() => setEditing(true)} data-testid="profile-edit">
              {t('profile.edit')}
            </button>
          </>
        )
      }
    >
      {profile.isError && <Alert tone="error">{errorText(t, profile.error)}</Alert>}
      {p && !editing && <ProfileView profile={p} />}
      {p && editing && <ProfileEdit profile={p} onDone={onClose} onCancel={onClose} />}
    </Dialog>
  );
}

function Avatar({ src, testId }: { src: string | null; testId: string }) {
  const { t } = useTranslation();
  return src ? <img className="profile-avatar" src={src} alt={t('profile.imageAlt')} data-testid={testId} /> : <span className="profile-avatar profile-avatar-empty" data-testid={`${testId}-loading`} />;
}

function ProfileView({ profile: p }: { profile: Profile }) {
  const { t, i18n } = useTranslation();
  const avatar = useAvatarUrl(p.profile_image);
  const specialisations = useSpecialisationsQuery();
  const dash = '–';
  const names = (specialisations.data ?? []).filter((s) => p.specialisation_ids.includes(s.id)).map((s) => t(`profile.specialisationNames.${s.id}` as 'profile.specialisationNames.1', { defaultValue: s.specialisation_name }));
  const rows: [string, ReactNode][] = [
    [t('fields.email'), p.email_id],
    [t('fields.secondaryEmail'), p.secondary_emails || dash],
    [t('fields.tertiaryEmail'), p.ternary_email || dash],
    [t('fields.phone'), p.primary_phone_number || dash],
    [t('fields.phone2'), p.secondary_phone_number || dash],
    [t('fields.phone3'), p.other_phone_number || dash],
    [t('fields.organisation'), p.organisation_name || dash],
    [t('fields.country'), p.country ? countryName(i18n.language, p.country) : dash],
    [t('fields.specialisations'), names.join(', ') || dash],
    [t('fields.birthDate'), p.date_of_birth ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${p.date_of_birth}T00:00:00Z`)) : dash],
    [t('profile.deviceWindow'), `${p.device_start_window} – ${p.device_stop_window}`],
    [t('fields.rii'), p.rii_parameters.map((c) => t(`profile.rii.${c as 'APN'}`)).join(', ') || dash],
    [t('profile.membership'), t(p.membership_type === 'paid' ? 'profile.membershipPaid' : 'profile.membershipNonPaid')],
  ];
  return (
    <div className="profile-view" data-testid="profile-view">
      <div className="profile-head">
        <Avatar src={avatar} testId="profile-avatar" />
        <div>
          <p className="profile-name" data-testid="profile-name">
            {`${p.first_name} ${p.last_name}`.trim()}
          </p>
          {(p.isSecondaryUser || p.isTernaryUser) && <p className="profile-role">{t(p.isSecondaryUser ? 'profile.secondaryUser' : 'profile.tertiaryUser')}</p>}
        </div>
      </div>
      <dl className="facts">
        {rows.map(([k, v]) => (
          <div key={k} className="fact">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function ProfileEdit({ profile: p, onDone, onCancel }: { profile: Profile; onDone: () => void; onCancel: () => void }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const countries = useCountriesQuery();
  const specialisations = useSpecialisationsQuery();
  const [form, setForm] = useState<ProfileForm>(() => formOf(p));
  const [specs, setSpecs] = useState<number[]>(p.specialisation_ids);
  const [image, setImage] = useState<ImageChoice>({ kind: 'keep' });
  const [errors, setErrors] = useState<ProfileErrors>({});
  const [passwords, setPasswords] = useState({ current: '', next: '', confirm: '' });
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  // The spec's 1 s wait before the save is sent (spec 1 §4, §9): saving already.
  const [waiting, setWaiting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const stored = useAvatarUrl(p.profile_image);
  const fallback = useAvatarUrl('profile_image.jpg');
  const locked = useMemo(() => lockedFields({ isSecondaryUser: p.isSecondaryUser, isTernaryUser: p.isTernaryUser }), [p.isSecondaryUser, p.isTernaryUser]);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  useEffect(() => () => void (image.kind === 'new' && URL.revokeObjectURL(image.preview)), [image]);

  const set = (k: keyof ProfileForm) => (value: string) => setForm((f) => ({ ...f, [k]: value }));
  const err = (k: ProfileField) => (errors[k] ? t(`profile.errors.${errors[k]!}`) : null);
  const countryCode = countries.data?.find((c) => c.name === form.country || c.code === form.country)?.code ?? '';
  const today = todayIso();
  const minBirth = `${Number(today.slice(0, 4)) - PROFILE_LIMITS.birthYears}-01-01`;

  const text = (k: keyof ProfileForm, label: string, extra: Partial<Parameters<typeof Field>[0]> = {}) => (
    <Field label={label} value={form[k] as string} onChange={(e) => set(k)(e.target.value)} disabled={locked.has(k) || saving} error={err(k)} data-testid={`profile-${k}`} {...extra} />
  );

  const chooseImage = (file: File | undefined) => {
    if (!file) return;
    const problem = checkImageFile(file.name, file.size);
    if (problem) {
      setErrors((e) => ({ ...e, profile_image: problem }));
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    setErrors((e) => ({ ...e, profile_image: undefined }));
    setImage({ kind: 'new', file, preview: URL.createObjectURL(file) });
  };

  const update = useMutation({
    mutationFn: async (body: FormData) => {
      await profileApi.update(body);
      await Promise.all([queryClient.invalidateQueries({ queryKey: profileKeys.profile }), queryClient.invalidateQueries({ queryKey: queryKeys.user })]);
    },
    // Saved: the dialog closes (and stays 'saving' until it has).
    onSuccess: () => onDone(),
    onError: async (e) => {
      if (e instanceof ApiError && e.status === 401 && e.code === 'password_mismatch') {
        await queryClient.invalidateQueries({ queryKey: profileKeys.profile });
        setPasswordError(t('errors.codes.password_mismatch'));
      } else if (e instanceof ApiError && e.field && e.rule && (e.field in formOf(p) || e.field === 'profile_image')) {
        setErrors({ [e.field]: e.rule } as ProfileErrors);
        setServerError(errorText(t, e));
      } else setServerError(errorText(t, e));
      setWaiting(false);
    },
  });
  const saving = waiting || update.isPending || update.isSuccess;

  const submit = () => {
    const body = new FormData();
    const put = (k: string, v: string) => body.append(k, v);
    put('first_name', form.first_name.trim());
    put('last_name', form.last_name.trim());
    put('email_id', p.email_id);
    put('secondary_emails', form.secondary_emails.trim());
    put('ternary_email', form.ternary_email.trim());
    put('device_start_window', form.device_start_window.trim());
    put('device_stop_window', form.device_stop_window.trim());
    put('phone', form.phone.trim());
    put('phone2', form.phone2.trim());
    put('phone3', form.phone3.trim());
    put('date_of_birth', form.date_of_birth);
    put('gender', p.gender);
    put('height', p.height === null ? '' : String(p.height));
    put('weight', p.weight === null ? '' : String(p.weight));
    put('bmi', p.bmi === null ? '' : String(p.bmi));
    put('organisation_name', form.organisation_name.trim());
    put('country', countryCode || form.country);
    put('specialisation_ids', specs.join(','));
    put('rii_parameters', JSON.stringify(form.rii_parameters));
    put('removed_profile_image', image.kind === 'remove' ? '1' : '0');
    if (image.kind === 'new') body.append('uploaded_profile_image', image.file, image.file.name);
    if (passwords.next) {
      put('current_password', passwords.current);
      put('new_password', passwords.next);
    }
    update.mutate(body);
  };

  const save = () => {
    setServerError(null);
    setPasswordError(null);
    const found: ProfileErrors = validateProfile(form, { isSecondaryUser: p.isSecondaryUser, isTernaryUser: p.isTernaryUser }, { today });
    if (errors.profile_image) found.profile_image = errors.profile_image;
    setErrors(found);
    let pw: string | null = null;
    if (passwords.next || passwords.current) {
      if (!passwords.current || !passwords.next) pw = t('profile.passwordBoth');
      else if (passwords.next.length < 8) pw = t('validation.passwordLength', { min: 8 });
      else if (passwords.next !== passwords.confirm) pw = t('validation.passwordMismatch');
    }
    setPasswordError(pw);
    if (Object.values(found).some(Boolean) || pw) return;
    // Submitted after a 1 s delay once every error is null (spec 1 §4, §9).
    setWaiting(true);
    timer.current = setTimeout(submit, PROFILE_LIMITS.saveDelayMs);
  };

  const shown = image.kind === 'new' ? image.preview : image.kind === 'remove' ? fallback : stored;
  const divisor = form.rii_parameters.find((c) => (RII_DIVISORS as readonly string[]).includes(c)) ?? '';
  const riiLocked = locked.has('rii_parameters') || saving;
  const imageId = useId();

  return (
    <form
      className="profile-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      data-testid="profile-form"
    >
      <div className="profile-head">
        <Avatar src={shown} testId={image.kind === 'new' ? 'profile-preview' : 'profile-avatar-edit'} />
        <div className="profile-image-actions">
          <label htmlFor={imageId} className="button">
            {t('profile.chooseImage')}
          </label>
          <input id={imageId} ref={fileInput} type="file" accept=".jpg,.jpeg,.png,image/jpeg,image/png" className="visually-hidden" disabled={saving} onChange={(e) => chooseImage(e.target.files?.[0])} data-testid="profile-image-input" />
          {image.kind !== 'keep' && (
            <button type="button" className="button button-quiet" disabled={saving} onClick={() => setImage({ kind: 'keep' })} data-testid="profile-image-keep">
              {t('profile.keepImage')}
            </button>
          )}
          {image.kind !== 'remove' && (image.kind === 'new' || p.profile_image !== 'profile_image.jpg') && (
            <button type="button" className="button button-quiet" disabled={saving} onClick={() => setImage({ kind: 'remove' })} data-testid="profile-image-remove">
              {t('profile.removeImage')}
            </button>
          )}
          <p className="field-hint">{t('profile.imageHint')}</p>
          {errors.profile_image && (
            <p className="field-error" data-testid="profile-image-error">
              {t(`profile.errors.${errors.profile_image}`)}
            </p>
          )}
        </div>
      </div>
      <div className="field-pair">
        {text('first_name', t('fields.firstName'), { maxLength: PROFILE_LIMITS.name, autoComplete: 'given-name' })}
        {text('last_name', t('fields.lastName'), { maxLength: PROFILE_LIMITS.name, autoComplete: 'family-name' })}
      </div>
      <Field label={t('fields.email')} value={p.email_id} readOnly disabled data-testid="profile-email_id" hint={t('profile.primaryEmailHint')} />
      <div className="field-pair">
        {text('secondary_emails', t('fields.secondaryEmail'), { type: 'email', maxLength: PROFILE_LIMITS.email })}
        {text('ternary_email', t('fields.tertiaryEmail'), { type: 'email', maxLength: PROFILE_LIMITS.email })}
      </div>
      <div className="field-pair">
        {text('phone', t('fields.phone'), { type: 'tel', maxLength: PROFILE_LIMITS.phone, inputMode: 'tel' })}
        {text('phone2', t('fields.phone2'), { type: 'tel', maxLength: PROFILE_LIMITS.phone, inputMode: 'tel' })}
      </div>
      {text('phone3', t('fields.phone3'), { type: 'tel', maxLength: PROFILE_LIMITS.phone, inputMode: 'tel' })}
      {text('organisation_name', t('fields.organisation'), { maxLength: PROFILE_LIMITS.organisation })}
      <div className="field">
        <label htmlFor={`${imageId}-country`}>{t('fields.country')}</label>
        <select id={`${imageId}-country`} value={countryCode} disabled={locked.has('country') || saving} onChange={(e) => set('country')(e.target.value)} data-testid="profile-country">
          <option value="">{t('auth.signup.countryPlaceholder')}</option>
          {localCountries(countries.data ?? [], i18n.language).map((c) => (
            <option key={c.code} value={c.code}>
              {c.localName}
            </option>
          ))}
        </select>
        {err('country') && <p className="field-error">{err('country')}</p>}
      </div>
      {text('date_of_birth', t('fields.birthDate'), { type: 'date', min: minBirth, max: today })}
      <fieldset className="profile-group">
        <legend>{t('fields.specialisations')}</legend>
        {(specialisations.data ?? []).map((s) => (
          <label key={s.id} className="check">
            <input type="checkbox" checked={specs.includes(s.id)} disabled={saving} onChange={(e) => setSpecs((list) => (e.target.checked ? [...list, s.id] : list.filter((x) => x !== s.id)))} data-testid={`profile-spec-${s.id}`} />
            {t(`profile.specialisationNames.${s.id}` as 'profile.specialisationNames.1', { defaultValue: s.specialisation_name })}
          </label>
        ))}
      </fieldset>
      <div className="field-pair">
        {text('device_start_window', t('fields.windowStart'), { placeholder: t('profile.timePlaceholder'), maxLength: 10 })}
        {text('device_stop_window', t('fields.windowStop'), { placeholder: t('profile.timePlaceholder'), maxLength: 10 })}
      </div>
      <fieldset className="profile-group" data-testid="profile-rii">
        <legend>{t('fields.rii')}</legend>
        {RII_CATEGORIES.map((c) => (
          <label key={c} className="check">
            <input
              type="checkbox"
              disabled={riiLocked}
              checked={form.rii_parameters.includes(c)}
              onChange={(e) => setForm((f) => ({ ...f, rii_parameters: e.target.checked ? [...f.rii_parameters, c] : f.rii_parameters.filter((x) => x !== c) }))}
              data-testid={`profile-rii-${c}`}
            />
            {t(`profile.rii.${c}`)}
          </label>
        ))}
        <p className="field-hint">{t('profile.divisor')}</p>
        {RII_DIVISORS.map((d) => (
          <label key={d} className="check">
            <input type="radio" name="rii-divisor" disabled={riiLocked} checked={divisor === d} onChange={() => setForm((f) => ({ ...f, rii_parameters: chooseDivisor(f.rii_parameters, d) }))} data-testid={`profile-rii-${d}`} />
            {t(`profile.rii.${d}`)}
          </label>
        ))}
        {err('rii_parameters') && <p className="field-error">{err('rii_parameters')}</p>}
      </fieldset>
      <p className="profile-membership" data-testid="profile-membership">
        {t('profile.membership')}: {t(p.membership_type === 'paid' ? 'profile.membershipPaid' : 'profile.membershipNonPaid')}
      </p>
      <fieldset className="profile-group">
        <legend>{t('profile.changePassword')}</legend>
        <Field label={t('fields.currentPassword')} type="password" autoComplete="current-password" value={passwords.current} disabled={saving} onChange={(e) => setPasswords((v) => ({ ...v, current: e.target.value }))} data-testid="profile-current-password" />
        <div className="field-pair">
          <Field label={t('fields.newPassword')} type="password" autoComplete="new-password" value={passwords.next} disabled={saving} onChange={(e) => setPasswords((v) => ({ ...v, next: e.target.value }))} data-testid="profile-new-password" />
          <Field label={t('profile.confirmPassword')} type="password" autoComplete="new-password" value={passwords.confirm} disabled={saving} onChange={(e) => setPasswords((v) => ({ ...v, confirm: e.target.value }))} data-testid="profile-confirm-password" />
        </div>
        {passwordError && (
          <p className="field-error" data-testid="profile-password-error">
            {passwordError}
          </p>
        )}
      </fieldset>
      {serverError && (
        <Alert tone="error" testId="profile-error">
          {serverError}
        </Alert>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel} disabled={saving} data-testid="profile-cancel">
          {t('profile.cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={saving} data-testid="profile-save">
          {saving ? t('profile.saving') : t('profile.save')}
        </button>
      </div>
    </form>
  );
}
