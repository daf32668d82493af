// Inputs for an operation's parameters, generated from its JSON Schema (see lib/schema-fields): a
// one-line input for a string, a text area for a long-form string or a JSON value.
import type { Field, FieldValues } from '../lib/schema-fields';

export function SchemaForm({ fields, values, onChange, idPrefix }: { fields: readonly Field[]; values: FieldValues; onChange: (next: FieldValues) => void; idPrefix: string }) {
  if (fields.length === 0) return <p class="meta">This operation takes no parameters.</p>;
  const set = (name: string, value: string | boolean): void => onChange({ ...values, [name]: value });
  return (
    <div class="schema-form">
      {fields.map((field) => {
        const id = `${idPrefix}-${field.name}`;
        const hintId = `${id}-hint`;
        const hint = [field.description, field.kind === 'json' ? 'JSON value.' : ''].filter((part) => part !== '').join(' ');
        const described = hint === '' ? {} : { 'aria-describedby': hintId };
        const value = values[field.name];
        const text = typeof value === 'string' ? value : '';
        return (
          <div class="field" key={field.name}>
            {field.kind === 'boolean' ? (
              <label class="check" for={id}>
                <input id={id} type="checkbox" checked={value === true} onChange={(event) => set(field.name, event.currentTarget.checked)} {...described} /> {field.name}
              </label>
            ) : (
              <label for={id}>
                {field.name}
                {field.required ? <span class="required"> (required)</span> : null}
              </label>
            )}
            {field.kind === 'enum' ? (
              <select id={id} value={text} onChange={(event) => set(field.name, event.currentTarget.value)} {...described}>
                <option value="">{field.required ? 'Choose…' : '(not set)'}</option>
                {field.options.map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            ) : field.kind === 'number' || field.kind === 'integer' ? (
              <input
                id={id}
                type="number"
                step={field.kind === 'integer' ? 1 : 'any'}
                {...(field.minimum === undefined ? {} : { min: field.minimum })}
                {...(field.maximum === undefined ? {} : { max: field.maximum })}
                value={text}
                required={field.required}
                onInput={(event) => set(field.name, event.currentTarget.value)}
                {...described}
              />
            ) : field.kind === 'string' && !field.multiline ? (
              <input
                id={id}
                type="text"
                spellcheck={false}
                {...(field.maxLength === undefined ? {} : { maxLength: field.maxLength })}
                required={field.required}
                value={text}
                onInput={(event) => set(field.name, event.currentTarget.value)}
                {...described}
              />
            ) : field.kind === 'string' || field.kind === 'json' ? (
              <textarea
                id={id}
                rows={field.kind === 'json' ? 4 : 5}
                class={field.kind === 'json' ? 'code' : ''}
                spellcheck={false}
                {...(field.maxLength === undefined ? {} : { maxLength: field.maxLength })}
                required={field.required}
                value={text}
                onInput={(event) => set(field.name, event.currentTarget.value)}
                {...described}
              />
            ) : null}
            {hint === '' ? null : (
              <p id={hintId} class="hint">
                {hint}
              </p>
            )}
          </div>
        );
      })}
    </div>
  );
}
