import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import type { ReactNode } from 'react';
import { BioHeader } from '../../src/features/night/BioHeader';
import { ChannelSelector } from '../../src/features/night/ChannelSelector';
import { NightPicker } from '../../src/features/night/NightPicker';
import { SideTabs } from '../../src/features/night/SideTabs';
import type { NightInfo, PatientInfo } from '../../src/features/night/types';
import i18n, { initI18n } from '../../src/i18n';

const render = (node: ReactNode) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>
        <Router ssrPath="/app/patients/id=7">{node}</Router>
      </I18nextProvider>
    </QueryClientProvider>,
  );

const patient: PatientInfo = {
  patient_id: 7, patient_code: 'NCT1001', first_name: 'Anna', last_name: 'Keller', gender: 'F', date_of_birth: '1958-01-01',
  height: 164, weight: 71, bmi: 26.4, vital_parameters: null, diseases: '', device_id: 'NCT0001', created_by: 1, is_sample_patient: false,
};

describe('patient detail parts', () => {
  beforeAll(async () => {
    await initI18n();
  });

  it('shows name, code, device and an info toggle; a sample patient only its name', () => {
    const html = render(<BioHeader patient={patient} />);
    for (const text of ['Anna Keller', 'NCT1001', 'Device NCT0001', 'data-testid="bio-info-toggle"']) expect(html).toContain(text);
    const sample = render(<BioHeader patient={{ ...patient, created_by: 2112, is_sample_patient: true }} />);
    expect(sample).toContain('Anna Keller');
    expect(sample).not.toContain('NCT0001');
    expect(sample).not.toContain('bio-info-toggle');
  });

  it('marks the active tab and disables the ones given (Summary in trend view)', () => {
    const html = render(<SideTabs active="overview" disabled={new Set(['summary'])} onSelect={() => undefined} />);
    expect(html).toMatch(/aria-current="page"[^>]*data-testid="tab-overview"[^>]*>Overview/);
    expect(html).toMatch(/disabled=""[^>]*data-testid="tab-summary"|data-testid="tab-summary"[^>]*disabled/);
    expect(html).not.toMatch(/disabled=""[^>]*data-testid="tab-details"/);
  });

  it('shows the chosen night as dd MMM yyyy', () => {
    const nights = [{ recording_id: 1, night: Date.UTC(2026, 2, 9) / 1000 }, { recording_id: 2, night: Date.UTC(2026, 2, 11) / 1000 }] as NightInfo[];
    const html = render(<NightPicker nights={nights} value={nights[1]!.night} onChange={() => undefined} />);
    expect(html).toContain('11 Mar 2026');
    expect(html).toContain(`data-night="${nights[1]!.night}"`);
  });

  it('tags PSG channels, marks shown ones and disables the buttons while loading', () => {
    const html = render(
      <ChannelSelector
        choices={[{ code: 'BR', visible: true }, { code: 'NC_PSG', visible: false }]}
        disabled
        onToggle={() => undefined}
        onMove={() => undefined}
        onSave={async () => undefined}
      />,
    );
    expect(html).toContain('Available Channels');
    expect(html).toContain('Save as');
    expect(html).toMatch(/aria-pressed="true"[^>]*disabled=""[^>]*data-testid="channel-BR"/);
    expect(html).toMatch(/data-testid="channel-NC_PSG"[^>]*>Nasal Cannula<span class="psg-tag">PSG/);
  });
});
