import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useReducer, useRef, useState, type Dispatch, type ReactNode } from 'react';
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
import { formOf, initialProfileEdit, passwordProblem, profileBody, profileEditReducer, type ProfileEditAction, type ProfileEditState } from './profileEditState';

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

type EditProps = { state: ProfileEditState; dispatch: Dispatch<ProfileEditAction>; saving: boolean };

function ProfileEdit({ profile: p, onDone, onCancel }: { profile: Profile; onDone: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const countries = useCountriesQuery();
  const [state, dispatch] = useReducer(profileEditReducer, p, initialProfileEdit);
  const { form, errors } = state;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const locked = useMemo(() => lockedFields({ isSecondaryUser: p.isSecondaryUser, isTernaryUser: p.isTernaryUser }), [p.isSecondaryUser, p.isTernaryUser]);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const countryCode = countries.data?.find((c) => c.name === form.country || c.code === form.country)?.code ?? '';
  const today = todayIso();
  const update = useProfileUpdate(p, dispatch, onDone);
  const saving = state.waiting || update.isPending || update.isSuccess;
  const fields = { state, dispatch, saving, locked };

  const save = () => {
    const found: ProfileErrors = validateProfile(form, { isSecondaryUser: p.isSecondaryUser, isTernaryUser: p.isTernaryUser }, { today });
    if (errors.profile_image) found.profile_image = errors.profile_image;
    const problem = passwordProblem(state.passwords);
    const passwordError = problem === 'both' ? t('profile.passwordBoth') : problem === 'length' ? t('validation.passwordLength', { min: 8 }) : problem === 'mismatch' ? t('validation.passwordMismatch') : null;
    dispatch({ type: 'checked', errors: found, passwordError });
    if (Object.values(found).some(Boolean) || passwordError) return;
    // Submitted after a 1 s delay once every error is null (spec 1 §4, §9); the state read then is this one.
    timer.current = setTimeout(() => update.mutate(profileBody(state, p, countryCode)), PROFILE_LIMITS.saveDelayMs);
  };

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
      <ImagePicker profile={p} state={state} dispatch={dispatch} saving={saving} />
      <ContactFields profile={p} {...fields} countryCode={countryCode} today={today} />
      <SpecialisationFields {...fields} />
      <RiiFields {...fields} />
      <p className="profile-membership" data-testid="profile-membership">
        {t('profile.membership')}: {t(p.membership_type === 'paid' ? 'profile.membershipPaid' : 'profile.membershipNonPaid')}
      </p>
      <PasswordFields {...fields} />
      {state.serverError && (
        <Alert tone="error" testId="profile-error">
          {state.serverError}
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

/** The save: the profile and the user read again, then done; a wrong current password, a field the server refused, or another error shown. */
function useProfileUpdate(p: Profile, dispatch: Dispatch<ProfileEditAction>, onDone: () => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: FormData) => {
      await profileApi.update(body);
      await Promise.all([queryClient.invalidateQueries({ queryKey: profileKeys.profile }), queryClient.invalidateQueries({ queryKey: queryKeys.user })]);
    },
    // Saved: the dialog closes (and stays 'saving' until it has).
    onSuccess: () => onDone(),
    onError: async (e) => {
      if (e instanceof ApiError && e.status === 401 && e.code === 'password_mismatch') {
        await queryClient.invalidateQueries({ queryKey: profileKeys.profile });
        dispatch({ type: 'failed', passwordError: t('errors.codes.password_mismatch') });
      } else if (e instanceof ApiError && e.field && e.rule && (e.field in formOf(p) || e.field === 'profile_image')) {
        dispatch({ type: 'failed', errors: { [e.field]: e.rule } as ProfileErrors, serverError: errorText(t, e) });
      } else dispatch({ type: 'failed', serverError: errorText(t, e) });
    },
  });
}

/** The profile image: the stored one, a new one chosen (checked for type and size), or removed. */
function ImagePicker({ profile: p, state, dispatch, saving }: EditProps & { profile: Profile }) {
  const { t } = useTranslation();
  const { image, errors } = state;
  const fileInput = useRef<HTMLInputElement>(null);
  const stored = useAvatarUrl(p.profile_image);
  const fallback = useAvatarUrl('profile_image.jpg');
  const imageId = useId();
  useEffect(() => () => void (image.kind === 'new' && URL.revokeObjectURL(image.preview)), [image]);
  const choose = (file: File | undefined) => {
    if (!file) return;
    const problem = checkImageFile(file.name, file.size);
    if (problem) {
      dispatch({ type: 'imageError', error: problem });
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    dispatch({ type: 'image', image: { kind: 'new', file, preview: URL.createObjectURL(file) } });
  };
  const shown = image.kind === 'new' ? image.preview : image.kind === 'remove' ? fallback : stored;
  return (
    <div className="profile-head">
      <Avatar src={shown} testId={image.kind === 'new' ? 'profile-preview' : 'profile-avatar-edit'} />
      <div className="profile-image-actions">
        <label htmlFor={imageId} className="button">
          {t('profile.chooseImage')}
        </label>
        <input id={imageId} ref={fileInput} type="file" accept=".jpg,.jpeg,.png,image/jpeg,image/png" className="visually-hidden" disabled={saving} onChange={(e) => choose(e.target.files?.[0])} data-testid="profile-image-input" />
        {image.kind !== 'keep' && (
          <button type="button" className="button button-quiet" disabled={saving} onClick={() => dispatch({ type: 'image', image: { kind: 'keep' } })} data-testid="profile-image-keep">
            {t('profile.keepImage')}
          </button>
        )}
        {image.kind !== 'remove' && (image.kind === 'new' || p.profile_image !== 'profile_image.jpg') && (
          <button type="button" className="button button-quiet" disabled={saving} onClick={() => dispatch({ type: 'image', image: { kind: 'remove' } })} data-testid="profile-image-remove">
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
  );
}

type FieldsProps = EditProps & { locked: ReadonlySet<string> };

/** One text field of the form: disabled where the role may not change it, its error in the user's language. */
function useTextField({ state, dispatch, saving, locked }: FieldsProps) {
  const { t } = useTranslation();
  return (k: keyof ProfileForm, label: string, extra: Partial<Parameters<typeof Field>[0]> = {}) => (
    <Field
      label={label}
      value={state.form[k] as string}
      onChange={(e) => dispatch({ type: 'field', key: k, value: e.target.value })}
      disabled={locked.has(k) || saving}
      error={state.errors[k as ProfileField] ? t(`profile.errors.${state.errors[k as ProfileField]!}`) : null}
      data-testid={`profile-${k}`}
      {...extra}
    />
  );
}

/** Names, e-mails, phones, organisation, country, birth date and the device window. */
function ContactFields(props: FieldsProps & { profile: Profile; countryCode: string; today: string }) {
  const { t } = useTranslation();
  const text = useTextField(props);
  const { profile: p, today } = props;
  const minBirth = `${Number(today.slice(0, 4)) - PROFILE_LIMITS.birthYears}-01-01`;
  return (
    <>
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
      <CountrySelect {...props} />
      {text('date_of_birth', t('fields.birthDate'), { type: 'date', min: minBirth, max: today })}
      <div className="field-pair">
        {text('device_start_window', t('fields.windowStart'), { placeholder: t('profile.timePlaceholder'), maxLength: 10 })}
        {text('device_stop_window', t('fields.windowStop'), { placeholder: t('profile.timePlaceholder'), maxLength: 10 })}
      </div>
    </>
  );
}

function CountrySelect({ state, dispatch, saving, locked, countryCode }: FieldsProps & { countryCode: string }) {
  const { t, i18n } = useTranslation();
  const countries = useCountriesQuery();
  const id = useId();
  const error = state.errors.country ? t(`profile.errors.${state.errors.country}`) : null;
  return (
    <div className="field">
      <label htmlFor={id}>{t('fields.country')}</label>
      <select id={id} value={countryCode} disabled={locked.has('country') || saving} onChange={(e) => dispatch({ type: 'field', key: 'country', value: e.target.value })} data-testid="profile-country">
        <option value="">{t('auth.signup.countryPlaceholder')}</option>
        {localCountries(countries.data ?? [], i18n.language).map((c) => (
          <option key={c.code} value={c.code}>
            {c.localName}
          </option>
        ))}
      </select>
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}

function SpecialisationFields({ state, dispatch, saving }: FieldsProps) {
  const { t } = useTranslation();
  const specialisations = useSpecialisationsQuery();
  return (
    <fieldset className="profile-group">
      <legend>{t('fields.specialisations')}</legend>
      {(specialisations.data ?? []).map((s) => (
        <label key={s.id} className="check">
          <input type="checkbox" checked={state.specs.includes(s.id)} disabled={saving} onChange={(e) => dispatch({ type: 'spec', id: s.id, on: e.target.checked })} data-testid={`profile-spec-${s.id}`} />
          {t(`profile.specialisationNames.${s.id}` as 'profile.specialisationNames.1', { defaultValue: s.specialisation_name })}
        </label>
      ))}
    </fieldset>
  );
}

/** The RII's categories (checkboxes) and its divisor (one of TBT, TST…). */
function RiiFields({ state, dispatch, saving, locked }: FieldsProps) {
  const { t } = useTranslation();
  const rii = state.form.rii_parameters;
  const divisor = rii.find((c) => (RII_DIVISORS as readonly string[]).includes(c)) ?? '';
  const riiLocked = locked.has('rii_parameters') || saving;
  const set = (value: string[]) => dispatch({ type: 'field', key: 'rii_parameters', value });
  return (
    <fieldset className="profile-group" data-testid="profile-rii">
      <legend>{t('fields.rii')}</legend>
      {RII_CATEGORIES.map((c) => (
        <label key={c} className="check">
          <input type="checkbox" disabled={riiLocked} checked={rii.includes(c)} onChange={(e) => set(e.target.checked ? [...rii, c] : rii.filter((x) => x !== c))} data-testid={`profile-rii-${c}`} />
          {t(`profile.rii.${c}`)}
        </label>
      ))}
      <p className="field-hint">{t('profile.divisor')}</p>
      {RII_DIVISORS.map((d) => (
        <label key={d} className="check">
          <input type="radio" name="rii-divisor" disabled={riiLocked} checked={divisor === d} onChange={() => set(chooseDivisor(rii, d))} data-testid={`profile-rii-${d}`} />
          {t(`profile.rii.${d}`)}
        </label>
      ))}
      {state.errors.rii_parameters && <p className="field-error">{t(`profile.errors.${state.errors.rii_parameters}`)}</p>}
    </fieldset>
  );
}

function PasswordFields({ state, dispatch, saving }: FieldsProps) {
  const { t } = useTranslation();
  const { passwords } = state;
  const set = (key: keyof ProfileEditState['passwords']) => (e: { target: { value: string } }) => dispatch({ type: 'password', key, value: e.target.value });
  return (
    <fieldset className="profile-group">
      <legend>{t('profile.changePassword')}</legend>
      <Field label={t('fields.currentPassword')} type="password" autoComplete="current-password" value={passwords.current} disabled={saving} onChange={set('current')} data-testid="profile-current-password" />
      <div className="field-pair">
        <Field label={t('fields.newPassword')} type="password" autoComplete="new-password" value={passwords.next} disabled={saving} onChange={set('next')} data-testid="profile-new-password" />
        <Field label={t('profile.confirmPassword')} type="password" autoComplete="new-password" value={passwords.confirm} disabled={saving} onChange={set('confirm')} data-testid="profile-confirm-password" />
      </div>
      {state.passwordError && (
        <p className="field-error" data-testid="profile-password-error">
          {state.passwordError}
        </p>
      )}
    </fieldset>
  );
}
