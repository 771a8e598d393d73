import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { channelName } from '../../builtInNames';

/** Channels named in full in a list line; past this, the rest are counted (the title names them all). */
const NAMED = 2;

/**
 * An annotation's channels as a list line says them: all of them when few, else the first two
 * and how many more (a mark scored on every chart shown names sixteen).
 */
export function channelsLine(t: TFunction, language: string, codes: readonly string[]): { text: string; title: string } {
  const names = codes.map((c) => channelName(t, language, c));
  const title = names.join(', ');
  if (names.length <= NAMED + 1) return { text: title, title };
  return { text: t('annotations.channelsMore', { names: names.slice(0, NAMED).join(', '), n: names.length - NAMED }), title };
}

/** The line's channels, every one named in the title. */
export function ChannelsText({ codes, className, prefix = '' }: { codes: readonly string[]; className?: string; prefix?: string }) {
  const { t, i18n } = useTranslation();
  const line = channelsLine(t, i18n.language, codes);
  return (
    <span className={className} title={line.title} data-testid="annotation-channels">
      {prefix}
      {line.text}
    </span>
  );
}
