/** ISO 3166-1 alpha-2 codes of the countries offered at signup and for patients. */
const CODES =
  'AD AE AF AG AL AM AO AR AT AU AZ BA BB BD BE BF BG BH BI BJ BN BO BR BS BT BW BY BZ CA CD CF CG CH CI CL CM CN CO CR CU CV CY CZ DE DJ DK DM DO DZ EC EE EG ER ES ET FI FJ FM FR GA GB GD GE GH GM GN GQ GR GT GW GY HK HN HR HT HU ID IE IL IN IQ IR IS IT JM JO JP KE KG KH KI KM KN KP KR KW KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MG MH MK ML MM MN MR MT MU MV MW MX MY MZ NA NE NG NI NL NO NP NR NZ OM PA PE PG PH PK PL PS PT PW PY QA RO RS RU RW SA SB SC SD SE SG SI SK SL SM SN SO SR SS ST SV SY SZ TD TG TH TJ TL TM TN TO TR TT TV TW TZ UA UG US UY UZ VA VC VE VN VU WS YE ZA ZM ZW';

/** Main zones of countries with several (ICU lists them alphabetically, not by population). */
const MAIN_ZONE: Record<string, string> = {
  AR: 'America/Argentina/Buenos_Aires', AU: 'Australia/Sydney', BR: 'America/Sao_Paulo', CA: 'America/Toronto',
  CD: 'Africa/Kinshasa', CL: 'America/Santiago', CN: 'Asia/Shanghai', EC: 'America/Guayaquil', ES: 'Europe/Madrid',
  FM: 'Pacific/Pohnpei', ID: 'Asia/Jakarta', IN: 'Asia/Kolkata', KI: 'Pacific/Tarawa', KZ: 'Asia/Almaty',
  MN: 'Asia/Ulaanbaatar', MX: 'America/Mexico_City', MY: 'Asia/Kuala_Lumpur', NZ: 'Pacific/Auckland',
  PG: 'Pacific/Port_Moresby', PT: 'Europe/Lisbon', RU: 'Europe/Moscow', UA: 'Europe/Kyiv', US: 'America/New_York',
  UZ: 'Asia/Tashkent', DE: 'Europe/Berlin', CY: 'Asia/Nicosia', PS: 'Asia/Gaza', KP: 'Asia/Pyongyang',
};

export interface Country {
  code: string;
  name: string;
  /** The country's main IANA time zone: a patient's nights are cut in it. */
  timezone: string;
}

function build(): Country[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  return CODES.split(' ')
    .map((code) => {
      const zones = (new Intl.Locale(`und-${code}`) as Intl.Locale & { timeZones?: string[] }).timeZones ?? [];
      return { code, name: names.of(code) ?? code, timezone: MAIN_ZONE[code] ?? zones[0] ?? 'UTC' };
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/** Every country, sorted by English name. */
export const COUNTRIES: readonly Country[] = build();

/** A country by its English name or its ISO code, whatever the case. */
export function findCountry(nameOrCode: string): Country | undefined {
  const key = nameOrCode.trim().toLowerCase();
  return COUNTRIES.find((c) => c.name.toLowerCase() === key || c.code.toLowerCase() === key);
}
