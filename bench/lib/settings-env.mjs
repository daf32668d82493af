// Settings written as the environment variables `portcullis serve` and `migrate` read (DESIGN §2, layer
// 5): `{ AppConfig: { AI: { X: 1 } } }` → `AppConfig__AI__X=1`, array items by index (`…__0`).
export function settingsEnv(settings, prefix = '') {
  const env = {};
  for (const [key, value] of Object.entries(settings)) {
    const name = prefix === '' ? key : `${prefix}__${key}`;
    if (value !== null && typeof value === 'object') Object.assign(env, settingsEnv(Array.isArray(value) ? { ...value } : value, name));
    else env[name] = String(value);
  }
  return env;
}
