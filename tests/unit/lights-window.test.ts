import { describe, expect, it } from 'vitest';
import { lightsWindow } from '../../server/analytics/corrections';

const at = (onset_ms: number, text: string) => ({ onset_ms, text });

describe("a PSG night's bed times from its lights markers (decision 1023)", () => {
  it('reads the first lights-off and the last lights-on after it, in the spellings scoring tools write', () => {
    expect(lightsWindow([at(5_000, 'Sleep stage W'), at(33_430, 'Lights off@@EEG F4-A1'), at(25_618_740, 'Lights on@@EEG Fpz-Cz')])).toEqual({ inMs: 33_430, outMs: 25_618_740 });
    expect(lightsWindow([at(100, 'LIGHTS OUT'), at(900, 'lights_on')])).toEqual({ inMs: 100, outMs: 900 });
    expect(lightsWindow([at(100, 'Light off'), at(500, 'Lights on'), at(600, 'Lights off'), at(900, 'Lights On')])).toEqual({ inMs: 100, outMs: 900 });
    // Unsorted as stored does not matter.
    expect(lightsWindow([at(900, 'Lights on'), at(100, 'Lights off')])).toEqual({ inMs: 100, outMs: 900 });
  });

  it('is none without both, with lights on before lights off, or for words that only contain "light"', () => {
    expect(lightsWindow([at(100, 'Lights off')])).toBeNull();
    expect(lightsWindow([at(100, 'Lights on'), at(900, 'Lights off')])).toBeNull();
    expect(lightsWindow([at(100, 'Light sleep'), at(900, 'Lights only partly on')])).toBeNull();
    expect(lightsWindow([at(100, 'Daylight off-season'), at(900, 'Lights on')])).toBeNull();
    expect(lightsWindow([])).toBeNull();
  });
});
