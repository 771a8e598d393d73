import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { NightInfo } from '../../src/features/night/types';
import { SummaryTables, type NightSummary } from '../../src/features/summary/SummaryPanel';
import i18n, { initI18n, setLanguage } from '../../src/i18n';

const night: NightInfo = {
  recording_id: 1, night: 1_754_611_200, recording_date: '2025-08-08', device_id: 'RESMED', timezone: 'UTC',
  recording_start_time: 1_754_614_923_000, recording_stop_time: 1_754_638_210_000, source: 'edf', live: false, sessions: [], channels: [],
};
const summary = (basis: 'sleep' | 'monitoring'): NightSummary => ({
  night: night.night, device_id: 'RESMED', rii: 1.55, rii_divisor: 'TBT', good_signal_duration: null, total_breathing_time: 6.4, total_sleep_time: basis === 'sleep' ? 6 : null, sleep_basis: basis === 'sleep' ? 'staging' : 'no_staging',
  total_bed_time: 6.47, sleep_efficiency: basis === 'sleep' ? 92.7 : null, sol: null, waso: basis === 'sleep' ? 12 : null, bed_in_time: '01:02', bed_out_time: '07:30', recording_start_time: night.recording_start_time,
  recording_stop_time: night.recording_stop_time, apneas: 3, hypopneas: 6, desaturations: 0, desaturation_rule: 3, customized_index: {}, percentiles: {}, recorded_weight: basis === 'sleep' ? 96.5 : null, lowest_spo2: 84,
  ahi: 1.39, odi: 0, index_basis: basis, monitoring_time: 6.47, ahi_hours: basis === 'sleep' ? 6 : 6.47, odi_hours: basis === 'sleep' ? 6 : 6.47,
  breathing_source: 'NC_PSG', ahi_basis: 'breathing_signal', latencies: { deep: null, light: null, rem: null }, device_summary: null, events_source: 'automatic', events_round_id: null, corrected: false, bed_times_from_lights: false, bed_times_from_recording: false,
});
const render = (s: NightSummary) => renderToStaticMarkup(<I18nextProvider i18n={i18n}><SummaryTables night={night} summary={s} /></I18nextProvider>);

describe('the summary labels the index by its basis', () => {
  beforeAll(async () => {
    await initI18n();
  });

  it('a night without sleep staging shows "REI (monitoring time)" and the monitoring time', async () => {
    await setLanguage('en-US');
    const html = render(summary('monitoring'));
    expect(html).toContain('REI (monitoring time)');
    expect(html).toContain('REI (events per hour of monitoring, no sleep staging)');
    expect(html).toContain('Monitoring time (h:mm:ss)');
    expect(html).toContain('6:28:12');
    // Figures that need staging, quality or a weight reading read "–", not 0.
    expect(html).not.toMatch(/>0:00(:00)?</);
    expect(html).not.toContain('>0 min<');
    expect(html).not.toContain('summary-weight');
    expect(html).toContain('ODI (desaturations per hour of monitoring)');
    expect(html).not.toContain('AHI (events per hour of sleep)');
  });

  it('gives every "–" of the recording table its reason', async () => {
    await setLanguage('en-US');
    const row = (html: string, label: string) => new RegExp(`<th scope="row">${label}</th><td[^>]*>([^<]*)</td>`).exec(html)?.[1];
    // A CPAP night: no sleep staging, no signal-quality channel.
    const cpap = render(summary('monitoring'));
    for (const label of ['Total sleep time \\(h:mm:ss\\)', 'Sleep efficiency', 'Sleep onset latency', 'Wake after sleep onset']) expect(row(cpap, label), label).toBe('– (no sleep staging)');
    expect(row(cpap, 'Good signal duration \\(h:mm:ss\\)')).toBe('– (no signal-quality channel)');
    expect(cpap).toContain('class="summary-reason"');
    // Staged, but no sleep scored after bed-in: only the latency has no value.
    const staged = render(summary('sleep'));
    expect(row(staged, 'Sleep onset latency')).toBe('– (no sleep scored)');
    expect(row(staged, 'Wake after sleep onset')).toBe('12 min');
    // Staged, no time in bed; no breathing-rate channel.
    const nobed = render({ ...summary('monitoring'), sleep_basis: 'no_bed_time', total_breathing_time: null });
    expect(row(nobed, 'Sleep efficiency')).toBe('– (no time in bed)');
    expect(row(nobed, 'Total breathing time \\(h:mm:ss\\)')).toBe('– (no breathing-rate channel)');
    // In another language too.
    await setLanguage('de-AT');
    expect(render(summary('monitoring'))).toContain('– (keine Schlafstadien)');
    await setLanguage('en-US');
  });

  it('a staged night keeps "AHI" per hour of sleep', async () => {
    await setLanguage('en-US');
    const html = render(summary('sleep'));
    expect(html).toContain('AHI (events per hour of sleep)');
    expect(html).not.toContain('REI');
    expect(html).toContain('>96.5 kg<');
    expect(html).toContain('>6:00:00<');
  });

  it('says the customized index counts annotations, not the detector\'s events, and where those are', async () => {
    await setLanguage('en-US');
    // A CPAP night: the detector found 3 apneas (REI table), nobody annotated one.
    const html = render({ ...summary('monitoring'), customized_index: { Apnea: 0, 'Central Apnea': 2 } });
    expect(html).toContain('Customized index (annotations)');
    expect(html).toContain('<th scope="row">Apnea (annotations)</th><td>0</td>');
    expect(html).toContain('<th scope="row">Central Apnea (annotations)</th><td>2</td>');
    expect(html).toContain('The detector&#x27;s events are counted in the REI (monitoring time) table.');
    expect(html).toMatch(/<th scope="row">Apneas<\/th><td>3<\/td>/);
    // A staged night names the AHI table instead.
    expect(render({ ...summary('sleep'), customized_index: { Apnea: 1 } })).toContain('counted in the AHI table.');
    // Without the AHI table (paid memberships) the note names no table.
    const { ahi: _a, odi: _o, ...paid } = summary('sleep');
    expect(render({ ...paid, customized_index: { Apnea: 0 } })).toContain('counted by category (not the detector&#x27;s events).');
    await setLanguage('fr-FR');
    // The built-in category is named in French (issue 32 point 10).
    expect(render({ ...summary('monitoring'), customized_index: { Apnea: 0 } })).toContain('Apnée (annotations)');
    expect(render({ ...summary('monitoring'), customized_index: { Apnea: 0 } })).toContain('Index personnalisé (annotations)');
    await setLanguage('en-US');
  });

  it('says how much of the sleep an index is per when its sensor was off for part of it, and "–" with why when for all of it', async () => {
    await setLanguage('en-US');
    const row = (html: string, label: string) => new RegExp(`<th scope="row">${label}</th><td[^>]*>([^<]*)</td>`).exec(html)?.[1];
    // Every hour of sleep had both signals: no extra row.
    const whole = render(summary('sleep'));
    expect(whole).not.toContain('Sleep with a breathing signal');
    expect(whole).not.toContain('Sleep with valid SpO2');
    // The cannula fell off after 4 of the 6 hours of sleep; the oximeter after 5.
    const part = render({ ...summary('sleep'), ahi: 2.25, ahi_hours: 4, odi: 1, odi_hours: 5 });
    expect(row(part, 'Sleep with a breathing signal \\(h:mm:ss\\)')).toBe('4:00:00');
    expect(row(part, 'Sleep with valid SpO2 \\(h:mm:ss\\)')).toBe('5:00:00');
    // A breathing signal recorded only while awake: no AHI, no RII (over any divisor: it counts AHI's events), the reason given.
    const none = render({ ...summary('sleep'), ahi: null, rii: null, rii_divisor: 'TBT', ahi_hours: 0, ahi_basis: 'no_breathing_signal_in_sleep', odi: null, odi_basis: 'no_spo2_in_sleep', odi_hours: 0 });
    expect(row(none, 'AHI \\(events per hour of sleep\\)')).toBe('– (no breathing signal during sleep)');
    expect(row(none, 'RII \\(events per hour\\)')).toBe('– (no breathing signal during sleep)');
    expect(row(none, 'ODI \\(desaturations per hour of sleep\\)')).toBe('– (no SpO2 during sleep)');
    // Nor counts beside them: nothing could be scored, so "–", not 0 apneas or desaturations.
    expect(row(none, 'Apneas')).toBe('–');
    expect(row(none, 'Hypopneas')).toBe('–');
    expect(row(none, 'Desaturations')).toBe('–');
    // Where the index has its basis, its counts are counts, 0 included.
    expect(row(part, 'Apneas')).toMatch(/^\d+$/);
    expect(row(part, 'Desaturations')).toMatch(/^\d+$/);
    expect(none).toContain('recorded during none of its sleep');
    // Said under both tables whose figures it explains.
    expect(/data-testid="summary-ahi"[^]*recorded during none of its sleep: AHI and RII/.test(none)).toBe(true);
    expect(/data-testid="summary-rii"[^]*recorded during none of its sleep: AHI and RII[^]*data-testid="summary-ahi"/.test(none)).toBe(true);
    await setLanguage('de-AT');
    expect(render({ ...summary('sleep'), ahi: null, ahi_hours: 0, ahi_basis: 'no_breathing_signal_in_sleep' })).toContain('– (kein Atemsignal im Schlaf)');
    await setLanguage('en-US');
  });

  it('gives each vital table its unit', async () => {
    await setLanguage('en-US');
    const v = { lowerPercentile: 12, medianPercentile: 14, upperPercentile: 17, mean: 14.2, min: 9, max: 21, count: 100 };
    const html = render({ ...summary('sleep'), percentiles: { BR: v, SPO2: v, MOV: v } });
    expect(html).toContain('<h4>Breathing rate (/min)</h4>');
    expect(html).toContain('<h4>SpO2 (%)</h4>');
    expect(html).toContain('<h4>Body movement</h4>');
  });

  it('says it in German too', async () => {
    await setLanguage('de-AT');
    expect(render(summary('monitoring'))).toContain('REI (Überwachungszeit)');
    await setLanguage('en-US');
  });
});
