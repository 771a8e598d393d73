import { beforeAll, describe, expect, it } from 'vitest';
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
