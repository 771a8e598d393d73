import { readFileSync } from 'node:fs';
import { createInstance, type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { categoryName, channelName, commentText, conditionName, countryName, localCountries } from '../../src/builtInNames';
import { axisLabels } from '../../src/features/live/axes';

/**
 * Issue 32 point 10: built-in texts stored in English (categories, the detector's comments,
 * conditions, countries) and the Real Time view's channel codes are named in every locale;
 * what a user wrote stays as written.
 */
const LOCALES = ['en-US', 'ar-SA', 'de-AT', 'es', 'fr-FR', 'it-IT', 'zh-Hans-CN'] as const;

async function tOf(lng: string): Promise<TFunction> {
  const i18n = createInstance();
  await i18n.init({ lng, fallbackLng: false, showSupportNotice: false, interpolation: { escapeValue: false }, resources: { [lng]: { translation: JSON.parse(readFileSync(`locales/${lng}.json`, 'utf8')) as object } } });
  return i18n.t;
}

const SEVEN = ['Apnea', 'Desaturation', 'Hypoapnea', 'Movement', 'Central Apnea', 'Obstructive Apnea', 'Irregularities'];

describe('built-in names in the user language', () => {
  it.each(LOCALES)('%s: categories, conditions and Real Time channels have names of their own', async (lng) => {
    const t = await tOf(lng);
    const names = SEVEN.map((label) => categoryName(t, { label, type: 'built-in' })!);
    // Seven distinct names, none a raw key.
    expect(new Set(names).size).toBe(7);
    for (const n of names) expect(n).not.toMatch(/^annotations\./);
    if (lng === 'en-US') expect(names).toEqual(SEVEN);
    else for (const label of ['Desaturation', 'Hypoapnea', 'Irregularities', 'Obstructive Apnea']) expect(categoryName(t, { label, type: 'built-in' })).not.toBe(label);
    // A user's category named like a built-in one stays as the user wrote it.
    expect(categoryName(t, { label: 'Desaturation', type: 'custom' })).toBe('Desaturation');
    expect(categoryName(t, { label: 'Snoring', type: 'built-in' })).toBe('Snoring');

    const osa = conditionName(t, { disease_description: 'Obstructive sleep apnoea', disease_shortname: 'OSA' })!;
    expect(osa).not.toMatch(/^patientAdmin\./);
    if (lng !== 'en-US') expect(osa).not.toBe('Obstructive sleep apnoea');
    expect(conditionName(t, { disease_description: 'Something rare', disease_shortname: 'XYZ' })).toBe('Something rare');

    for (const code of ['I', 'Q', 'Y_DIST', 'SQB']) {
      const name = channelName(t, code);
      expect(name).not.toBe(code);
      expect(name).not.toMatch(/^(live|night)\./);
    }
    expect(channelName(t, 'EEG Fpz-Cz')).toBe('EEG Fpz-Cz');
  });

  it.each(LOCALES)("%s: the detector's comments are said in the language, a user's comment is kept", async (lng) => {
    const t = await tOf(lng);
    const hypopnea = commentText(t, lng, 'Hypopnea (NC_PSG), amplitude 31 % of baseline');
    expect(hypopnea).toContain('31');
    expect(hypopnea).toContain(t('night.channels.NC_PSG'));
    if (lng !== 'en-US') expect(hypopnea).not.toMatch(/amplitude 31 % of baseline|Hypopnea/);
    else expect(hypopnea).toBe('Hypopnea (Nasal Cannula), amplitude 31 % of baseline');
    const desat = commentText(t, lng, 'SpO2 95.5 → 88 %');
    expect(desat).toMatch(lng === 'de-AT' || lng === 'fr-FR' || lng === 'es' || lng === 'it-IT' ? /95,5/ : /95\.5/);
    expect(commentText(t, lng, 'Hypopnea, amplitude low — check')).toBe('Hypopnea, amplitude low — check');
  });

  it('names countries in the language, whether stored by code or English name', () => {
    expect(countryName('de-AT', 'DE')).toBe('Deutschland');
    expect(countryName('de-AT', 'Switzerland')).toBe('Schweiz');
    expect(countryName('fr-FR', 'Germany')).toBe('Allemagne');
    expect(countryName('de-AT', 'Atlantis')).toBe('Atlantis');
    const list = localCountries([{ code: 'DE' }, { code: 'AT' }, { code: 'CH' }], 'de-AT');
    expect(list.map((c) => c.localName)).toEqual(['Deutschland', 'Österreich', 'Schweiz']);
  });
});

describe('Real Time axes', () => {
  const axes = { value: (v: number) => v.toFixed(1), time: (ms: number) => String(ms / 1000), valueLabel: 'v', timeLabel: 't', gap: 'gap' };

  it('labels values top to bottom and times start to end', () => {
    const out = axisLabels(axes, { lo: 10, hi: 20, filled: 300, samples: 1000 }, { t0: 0, t1: 60_000 });
    expect(out).toEqual({ values: ['20.0', '15.0', '10.0'], times: ['0', '30', '60'], gap: false });
  });

  it('says a window inside a gap is one, without value labels; no samples yet is no gap', () => {
    expect(axisLabels(axes, { lo: 0, hi: 1, filled: 0, samples: 1000 }, { t0: 0, t1: 60_000 })).toMatchObject({ values: ['', '', ''], gap: true });
    expect(axisLabels(axes, { lo: 0, hi: 1, filled: 0, samples: 0 }, { t0: 0, t1: 60_000 }).gap).toBe(false);
  });
});
