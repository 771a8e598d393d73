// The device step of the add-patient wizard: when no device is free for the chosen dates,
// the next days with a free device (GET /physician/available-devices-dates) are offered.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminKeys } from '../../src/features/patient-admin/api';
import { dayStartMs } from '../../src/features/patient-admin/logic/dates';
import { initialScreening } from '../../src/features/patient-admin/logic/screening';
import { DevicePicker } from '../../src/features/patient-admin/ui/DevicePicker';
import i18n, { initI18n } from '../../src/i18n';

const zone = 'Europe/Zurich';
const range = { allocation: '2026-11-23', deallocation: '2026-11-30' };

function render(devices: unknown[], freeDates: string[]): string {
  const client = new QueryClient();
  client.setQueryData(adminKeys.available(dayStartMs(range.allocation, zone), dayStartMs(range.deallocation, zone)), devices);
  client.setQueryData(adminKeys.availableDates(zone), freeDates);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <DevicePicker
          range={range} today="2026-11-22" zone={zone} windowStart="19:00" windowEnd="11:00" selected={null}
          screening={initialScreening} dispatch={() => undefined} onRange={() => undefined} onSelect={() => undefined} onPastDate={() => undefined}
        />
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('device picker', () => {
  beforeAll(async () => {
    await initI18n();
  });

  it('offers the next five free days after the chosen start when no device is free', () => {
    const html = render([], ['2026-11-22', '2026-11-23', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06']);
    expect(html).toContain('data-testid="no-device"');
    expect(html).toContain('A device is free from:');
    const offered = [...html.matchAll(/data-testid="free-date-([\d-]+)"/g)].map((m) => m[1]);
    expect(offered).toEqual(['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05']);
  });

  it('lists the free devices and no dates when some device is free', () => {
    const html = render([{ device_master_id: 5, device_id: 'NCT0005' }], ['2026-12-01']);
    expect(html).toContain('data-device="NCT0005"');
    expect(html).not.toContain('free-dates');
  });
});
