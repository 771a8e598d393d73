/** Units the spec names for blood pressure, blood sugar and body temperature (spec 2 §9), as i18n keys: the night's charts and the trend print them. */
export const SPEC_UNIT_KEYS = { bp: 'night.units.bp', blood_sugar: 'night.units.bloodSugar', body_temp: 'night.units.bodyTemp' } as const;
