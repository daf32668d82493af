// Parses .NET TimeSpan text ("hh:mm", "hh:mm:ss", "d.hh:mm:ss", "hh:mm:ss.fffffff", optional leading
// "-") into milliseconds. Deliberately refuses a bare number ("30"): .NET reads it as days, which is a
// unit trap, so configuration must spell the clock form.

const TIME_SPAN = /^(-)?(?:(\d{1,8})\.)?(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,7}))?)?$/;
const MAX_DAYS = 10_675_199; // TimeSpan.MaxValue's whole days

export function parseTimeSpan(text: string): number | null {
  const match = TIME_SPAN.exec(text.trim());
  if (!match) return null;
  const [, sign, dayText, hourText, minuteText, secondText, fraction] = match;
  const days = Number(dayText ?? 0);
  const hours = Number(hourText);
  const minutes = Number(minuteText);
  const seconds = Number(secondText ?? 0);
  if (days > MAX_DAYS || hours > 23 || minutes > 59 || seconds > 59) return null;
  // Ticks are 100 ns; seven fraction digits are whole ticks, so the division below is exact to 1e-4 ms.
  const ticks = Number((fraction ?? '').padEnd(7, '0'));
  const ms = (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000 + ticks / 10_000;
  return sign ? -ms : ms;
}

/**
 * Exactly the texts parseTimeSpan reads as a positive duration, as a JSON Schema pattern (no lookbehind),
 * so a schema can refuse what a reader of parseTimeSpan refuses: no sign, days up to TimeSpan.MaxValue's,
 * hours to 23, minutes and seconds to 59, some digit other than 0, surrounding whitespace allowed.
 */
export const POSITIVE_TIME_SPAN_PATTERN =
  '^\\s*(?=[^1-9]*[1-9])(?:(?:\\d{1,7}|0\\d{7}|10[0-5]\\d{5}|106[0-6]\\d{4}|1067[0-4]\\d{3}|10675[01]\\d{2}|1067519\\d)\\.)?(?:[01]?\\d|2[0-3]):[0-5]?\\d(?::[0-5]?\\d(?:\\.\\d{1,7})?)?\\s*$';
