import { beforeAll, describe, expect, it, vi } from 'vitest';
import i18n, { initI18n, setLanguage } from '../../src/i18n';

// The new catalogues through i18next itself: plural forms as Intl.PluralRules picks them, and
// the language asked for last winning over a catalogue that arrives late.

beforeAll(async () => {
  await initI18n();
});

describe('switching language', () => {
  it('resolves each plural form the new languages need', async () => {
    await setLanguage('es');
    expect(i18n.t('patients.count', { count: 1 })).toBe('1 paciente');
    expect(i18n.t('patients.count', { count: 3 })).toBe('3 pacientes');
    expect(i18n.t('patients.count', { count: 1_000_000 })).toBe('1000000 pacientes');
    await setLanguage('it-IT');
    expect(i18n.t('patientAdmin.device.nights', { count: 1 })).toBe('1 notte');
    expect(i18n.t('patientAdmin.device.nights', { count: 1_000_000 })).toBe('1000000 notti');
    await setLanguage('zh-Hans-CN');
    expect(i18n.t('patients.count', { count: 1 })).toBe('1 位患者');
    expect(i18n.dir()).toBe('ltr');
    await setLanguage('ar-SA');
    expect(i18n.dir()).toBe('rtl');
    expect(i18n.t('trend.days', { count: 1 })).toBe('يوم واحد');
    expect(i18n.t('trend.days', { count: 2 })).toBe('يومان');
    expect(i18n.t('trend.days', { count: 5 })).toBe('5 أيام');
    expect(i18n.t('trend.days', { count: 11 })).toBe('11 يومًا');
    expect(i18n.t('trend.days', { count: 100 })).toBe('100 يوم');
    await setLanguage('en-US');
  });

  it('keeps the language chosen last when an earlier choice loads later', async () => {
    // Chinese is loaded above; Italian would be too, so drop it to make its load the slow one.
    i18n.removeResourceBundle('it-IT', 'translation');
    const slow = setLanguage('it-IT');
    await setLanguage('en-US');
    await slow;
    expect(i18n.language).toBe('en-US');
    expect(i18n.t('nav.patients')).toBe('My Patients');
  });
});

// t()'s answers are kept by language, key and options (decision 1016): kept answers must never
// outlive the catalogue or language they came from, and calls that differ must not share one.
/** i18next's translator (not in its public types): what every t() that is not kept reaches. */
function translator(): { translate(...args: unknown[]): unknown } {
  return (i18n as unknown as { translator: { translate(...args: unknown[]): unknown } }).translator;
}

describe("t()'s kept answers", () => {
  it('translates a repeated call once', () => {
    const translate = vi.spyOn(translator(), 'translate');
    try {
      i18n.t('header.signedInAs', { name: 'Ada' });
      i18n.t('header.signedInAs', { name: 'Ada' });
      i18n.t('header.signedInAs', { name: 'Ada' });
      expect(translate).toHaveBeenCalledTimes(1);
    } finally {
      translate.mockRestore();
    }
  });

  it('answers each option set for itself', () => {
    expect(i18n.t('header.signedInAs', { name: 'Ada' })).toBe('Signed in as Ada');
    expect(i18n.t('header.signedInAs', { name: 'Grace' })).toBe('Signed in as Grace');
    expect(i18n.t('auth.forgot.resendIn', { count: 1 })).toBe('Resend code in 1 second');
    expect(i18n.t('auth.forgot.resendIn', { count: 2 })).toBe('Resend code in 2 seconds');
    expect(i18n.t('auth.forgot.resendIn', { count: 1 })).toBe('Resend code in 1 second');
    // A number and a string of the same digits are two calls (plural rules read only numbers).
    expect(i18n.t('header.signedInAs', { name: 1 })).toBe('Signed in as 1');
    expect(i18n.t('header.signedInAs', { name: '1' })).toBe('Signed in as 1');
  });

  it('forgets kept answers when the language or a catalogue changes', async () => {
    expect(i18n.t('nav.patients')).toBe('My Patients');
    await setLanguage('es');
    expect(i18n.t('nav.patients')).not.toBe('My Patients');
    await setLanguage('en-US');
    expect(i18n.t('nav.patients')).toBe('My Patients');
    i18n.addResourceBundle('en-US', 'translation', { nav: { patients: 'Patients of mine' } }, true, true);
    try {
      expect(i18n.t('nav.patients')).toBe('Patients of mine');
    } finally {
      i18n.addResourceBundle('en-US', 'translation', { nav: { patients: 'My Patients' } }, true, true);
    }
    expect(i18n.t('nav.patients')).toBe('My Patients');
  });

  it('forgets them after a second start too (test files share the module): the wrapper is not wrapped again', async () => {
    await initI18n();
    await initI18n();
    expect(i18n.t('nav.patients')).toBe('My Patients');
    i18n.addResourceBundle('en-US', 'translation', { nav: { patients: 'Patients of mine' } }, true, true);
    try {
      expect(i18n.t('nav.patients')).toBe('Patients of mine');
    } finally {
      i18n.addResourceBundle('en-US', 'translation', { nav: { patients: 'My Patients' } }, true, true);
    }
    expect(i18n.t('nav.patients')).toBe('My Patients');
  });

  it('never keeps an answer that is not a string, nor a call with an object option', () => {
    const items = i18n.t('static.faq.items', { returnObjects: true }) as unknown as unknown[];
    expect(Array.isArray(items) && items.length > 0).toBe(true);
    const again = i18n.t('static.faq.items', { returnObjects: true }) as unknown as unknown[];
    // Each call builds its own array: a caller changing one cannot change the next.
    expect(again).not.toBe(items);
    expect(again).toEqual(items);
    const translate = vi.spyOn(translator(), 'translate');
    try {
      i18n.t('header.signedInAs', { name: 'Ada', replace: { name: 'Lin' } });
      i18n.t('header.signedInAs', { name: 'Ada', replace: { name: 'Lin' } });
      expect(translate).toHaveBeenCalledTimes(2);
    } finally {
      translate.mockRestore();
    }
  });
});
