// A call's JSON arguments as the Cedar value of `context.arguments`, following the operation's Cedar
// type (cedar-type-of.ts): properties the type leaves out are dropped unread, and so is any property
// whose name no policy reads, when the caller says which names are read. Anything that cannot be
// handed to Cedar exactly is a refusal with a caller-safe reason (the call is then denied): a value of
// the wrong type, a non-finite number, a whole number beyond ±(2^53 − 1), a decimal beyond Cedar's
// range or with more than 4 fractional digits, text holding NUL, a required property missing, and
// more than MAX_ARGUMENT_NODES values or MAX_ARGUMENT_TEXT of text. It counts as it walks, so a huge
// input is refused in time proportional to the bound, not to the input. It never throws.
import type { CedarAttribute, CedarRecordType, CedarType } from './cedar-schema-types.js';
import type { CedarRecordValue, CedarValue } from './cedar-value.js';
import { decimalText } from './decimal-text.js';
import { MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_NODES, MAX_ARGUMENT_TEXT } from './policy-bounds.js';

export interface ArgumentsMapped {
  readonly mappable: true;
  readonly value: CedarRecordValue;
  /** The longest text each attribute name holds (what Cedar's `like` may have to scan). */
  readonly longestText: ReadonlyMap<string, number>;
  /** The longest text anywhere in the mapped value (set members included). */
  readonly longestTextAnywhere: number;
}

export type ArgumentMapping = ArgumentsMapped | { readonly mappable: false; readonly reason: string };

export interface ArgumentMappingOptions {
  /** The attribute names some policy reads; properties of other names are left out. Absent: all map. */
  readonly readable?: ReadonlySet<string> | undefined;
}

class Refusal {
  constructor(readonly reason: string) {}
}

type Mapped = CedarValue | Refusal;

/** Refusal texts name the argument by its path (`items[2].sku`), never its value. */
class ArgumentWalk {
  nodes = 0;
  text = 0;
  longestAnywhere = 0;
  readonly longest = new Map<string, number>();
  readonly #path: (string | number)[] = [];

  constructor(readonly readable: ReadonlySet<string> | undefined) {}

  value(type: CedarType, value: unknown, depth: number): Mapped {
    if (++this.nodes > MAX_ARGUMENT_NODES) return new Refusal(`The arguments hold more than ${MAX_ARGUMENT_NODES} values that policies read.`);
    if (depth > MAX_ARGUMENT_DEPTH) return this.refuse(`is nested deeper than ${MAX_ARGUMENT_DEPTH} levels`);
    switch (type.type) {
      case 'String':
        return typeof value === 'string' ? this.string(value) : this.refuse('is not a string');
      case 'Long':
        return this.long(value);
      case 'Extension':
        return this.decimal(value);
      case 'Boolean':
        return typeof value === 'boolean' ? value : this.refuse('is not true or false');
      case 'Set':
        return Array.isArray(value) ? this.set(type.element, value, depth) : this.refuse('is not a list');
      case 'Record':
        return isObject(value) ? this.record(type, value, depth) : this.refuse('is not an object');
    }
  }

  record(type: CedarRecordType, value: Readonly<Record<string, unknown>>, depth: number): CedarRecordValue | Refusal {
    const entries: [string, CedarValue][] = [];
    for (const [name, attribute] of Object.entries(type.attributes)) {
      if (this.readable !== undefined && !this.readable.has(name)) continue;
      const member = Object.hasOwn(value, name) ? value[name] : undefined;
      this.#path.push(name);
      const mapped = member === undefined ? this.absent(attribute) : this.value(attribute, member, depth + 1);
      if (mapped instanceof Refusal) return mapped;
      if (mapped !== null) entries.push([name, mapped]);
      if (typeof mapped === 'string') this.noteLongest(name, mapped.length);
      this.#path.pop();
    }
    return Object.fromEntries(entries);
  }

  private absent(attribute: CedarAttribute): null | Refusal {
    return attribute.required ? this.refuse("is required by the operation's schema") : null;
  }

  private set(element: CedarType, value: readonly unknown[], depth: number): Mapped {
    if (this.nodes + value.length > MAX_ARGUMENT_NODES) return new Refusal(`The arguments hold more than ${MAX_ARGUMENT_NODES} values that policies read.`);
    const members: CedarValue[] = [];
    for (let index = 0; index < value.length; index += 1) {
      this.#path.push(index);
      const mapped = this.value(element, value[index], depth + 1);
      if (mapped instanceof Refusal) return mapped;
      members.push(mapped);
      this.#path.pop();
    }
    return members;
  }

  private string(value: string): Mapped {
    this.text += value.length;
    if (this.text > MAX_ARGUMENT_TEXT) return new Refusal(`The arguments hold more than ${MAX_ARGUMENT_TEXT} characters of text that policies read.`);
    if (value.includes('\0')) return this.refuse('contains a NUL character');
    this.longestAnywhere = Math.max(this.longestAnywhere, value.length);
    return value;
  }

  private long(value: unknown): Mapped {
    if (typeof value !== 'number') return this.refuse('is not a whole number');
    if (!Number.isFinite(value)) return this.refuse('is not a finite number');
    if (!Number.isInteger(value)) return this.refuse('is not a whole number');
    if (!Number.isSafeInteger(value)) return this.refuse(`is outside the whole numbers policies compare exactly (±${Number.MAX_SAFE_INTEGER})`);
    return value === 0 ? 0 : value;
  }

  private decimal(value: unknown): Mapped {
    if (typeof value !== 'number') return this.refuse('is not a number');
    if (!Number.isFinite(value)) return this.refuse('is not a finite number');
    const decimal = decimalText(value);
    if (decimal.ok) return { __extn: { fn: 'decimal', arg: decimal.text } };
    return decimal.problem === 'range'
      ? this.refuse("is outside Cedar's decimal range (±922337203685477.5807)")
      : this.refuse('has more than 4 decimal places, which policies cannot compare exactly');
  }

  private noteLongest(name: string, length: number): void {
    if (length > (this.longest.get(name) ?? -1)) this.longest.set(name, length);
  }

  private refuse(what: string): Refusal {
    return new Refusal(`The argument \`${formatPath(this.#path)}\` ${what}.`);
  }
}

export function cedarArguments(type: CedarRecordType, args: unknown, options: ArgumentMappingOptions = {}): ArgumentMapping {
  const walk = new ArgumentWalk(options.readable);
  const given = args === undefined ? {} : args;
  if (!isObject(given)) return { mappable: false, reason: 'The arguments are not a JSON object.' };
  walk.nodes = 1;
  const value = walk.record(type, given, 1);
  if (value instanceof Refusal) return { mappable: false, reason: value.reason };
  return { mappable: true, value, longestText: walk.longest, longestTextAnywhere: walk.longestAnywhere };
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function formatPath(path: readonly (string | number)[]): string {
  return path.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');
}
