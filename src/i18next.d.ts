import 'i18next';
import type en from '../locales/en-US.json';

// Types every t() key from the English catalogue, so a typo fails the typecheck.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
