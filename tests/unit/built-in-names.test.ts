import { readFileSync } from 'node:fs';
import { createInstance, type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { categoryName, channelName, commentText, conditionName, countryName, localCountries, channelNameParts, sourceTitle } from '../../src/builtInNames';
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
      const name = channelName(t, lng, code);
      expect(name).not.toBe(code);
      expect(name).not.toMatch(/^(live|night)\./);
    }
    expect(channelName(t, lng, 'EEG Fpz-Cz')).toBe('EEG Fpz-Cz');
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

/**
 * Decision 1001: the source signals a ResMed card writes that stay codes of their own
 * ('MaskPress.2s') are named in the user's language, their sample period in its numbers;
 * labels Nocturne does not know stay as stored.
 */
describe('source signals kept under their own label', () => {
  // Every label of the real ResMed files (tests/fixtures/real) that the import keeps as a code.
  const RESMED = ['Press.40ms', 'MaskPress.2s', 'Press.2s', 'EprPress.2s', 'Leak.2s', 'TidVol.2s', 'MinVent.2s', 'Snore.2s', 'FlowLim.2s'];
  const NB = '\u00a0';

  it('names them in English with the period the label carries', async () => {
    const t = await tOf('en-US');
    expect(RESMED.map((code) => channelName(t, 'en-US', code))).toEqual([
      `Mask pressure (40${NB}ms)`,
      `Mask pressure (2${NB}s)`,
      `Therapy pressure (2${NB}s)`,
      `Expiratory pressure (2${NB}s)`,
      `Leak (2${NB}s)`,
      `Tidal volume (2${NB}s)`,
      `Minute ventilation (2${NB}s)`,
      `Snore (2${NB}s)`,
      `Flow limitation (2${NB}s)`,
    ]);
    // Other ResMed devices' PLD signals, and a respiratory rate the import refused to map (its unit did not fit).
    expect(['TgtVent.2s', 'IERatio.2s', 'Ti.2s', 'Te.2s', 'AlvMinVent.2s', 'RespRate.2s'].map((code) => channelName(t, 'en-US', code))).toEqual(
      ['Target ventilation', 'I:E ratio', 'Inspiratory time', 'Expiratory time', 'Alveolar minute ventilation', 'Respiratory rate'].map((n) => `${n} (2${NB}s)`),
    );
  });

  it('matches them as the server does: without the suffix, in any case and spacing', async () => {
    const t = await tOf('en-US');
    expect(channelName(t, 'en-US', 'Leak')).toBe('Leak');
    expect(channelName(t, 'en-US', 'mask press')).toBe('Mask pressure');
    expect(channelName(t, 'en-US', 'TIDVOL.2S')).toBe(`Tidal volume (2${NB}s)`);
    // 'Press' without a period is only a pressure; two letters without ResMed's period mean nothing sure.
    expect(channelName(t, 'en-US', 'Press')).toBe('Pressure');
    expect(channelName(t, 'en-US', 'Ti')).toBe('Ti');
    expect(channelName(t, 'en-US', 'TE')).toBe('TE');
  });

  it('keeps a label it does not know as stored, and a Nocturne code by its own name', async () => {
    const t = await tOf('en-US');
    for (const code of ['EEG Fpz-Cz', 'TrigCycEvt.40ms', 'AMV.2s', 'B5ITime.2s', 'sine 5Hz', 'ns:odd.label', 'Leakage.2s']) {
      expect(channelName(t, 'en-US', code)).toBe(code);
      expect(sourceTitle(t, code)).toBeUndefined();
    }
    expect(channelName(t, 'en-US', 'NC_PSG')).toBe('Nasal Cannula');
    expect(sourceTitle(t, 'NC_PSG')).toBeUndefined();
    expect(sourceTitle(t, 'MaskPress.2s')).toBe('Source signal: MaskPress.2s');
  });

  it('writes the period in the language: its decimal mark, its words', async () => {
    const de = await tOf('de-AT');
    expect(channelName(de, 'de-AT', 'MaskPress.2s')).toBe(`Maskendruck (2${NB}s)`);
    expect(channelName(de, 'de-AT', 'Press.40ms')).toBe(`Maskendruck (40${NB}ms)`);
    expect(channelName(de, 'de-AT', 'Leak.0.5s')).toBe(`Leckage (0,5${NB}s)`);
    expect(sourceTitle(de, 'Leak.2s')).toBe('Quellsignal: Leak.2s');
    const fr = await tOf('fr-FR');
    expect(channelName(fr, 'fr-FR', 'TidVol.1.5s')).toBe(`Volume courant (1,5${NB}s)`);
    const en = await tOf('en-US');
    expect(channelName(en, 'en-US', 'TidVol.1.5s')).toBe(`Tidal volume (1.5${NB}s)`);
    const zh = await tOf('zh-Hans-CN');
    expect(channelName(zh, 'zh-Hans-CN', 'MaskPress.2s')).toBe(`面罩压力（2${NB}秒）`);
    // Arabic keeps Latin digits (format.ts): the same numbers as the report and the files.
    const ar = await tOf('ar-SA');
    expect(channelName(ar, 'ar-SA', 'Leak.2s')).toBe(`التسرّب (2${NB}ث)`);
  });

  it('splits a named period from its name for a header that must cut one of them', async () => {
    const de = await tOf('de-AT');
    expect(channelNameParts(de, 'de-AT', 'Press.40ms')).toEqual({ name: 'Maskendruck', period: ` (40${NB}ms)` });
    expect(channelNameParts(de, 'de-AT', 'NC_PSG')).toEqual({ name: 'Nasenkanüle', period: '' });
    expect(channelNameParts(de, 'de-AT', 'Leak')).toEqual({ name: 'Leckage', period: '' });
    expect(channelNameParts(de, 'de-AT', 'EEG Fpz-Cz')).toEqual({ name: 'EEG Fpz-Cz', period: '' });
    const zh = await tOf('zh-Hans-CN');
    expect(channelNameParts(zh, 'zh-Hans-CN', 'Leak.2s')).toEqual({ name: '漏气量', period: `（2${NB}秒）` });
  });

  it.each(LOCALES)('%s: every ResMed signal has a name of its own, none a raw label or key', async (lng) => {
    const t = await tOf(lng);
    const names = RESMED.map((code) => channelName(t, lng, code));
    expect(new Set(names).size).toBe(RESMED.length);
    for (const [i, name] of names.entries()) {
      expect(name).not.toContain(RESMED[i]!);
      expect(name).not.toMatch(/night\./);
    }
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
