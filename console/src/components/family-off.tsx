// What a page of a family the host turned off shows instead of itself: that it is off here, and the
// key the host's operator would set. Nothing of the family is asked of the service.
import { FAMILY_TEXT, type Family } from '../lib/families';
import { href, useTitle } from '../lib/router';

export function FamilyOffPage({ family }: { family: Family }) {
  const { name } = FAMILY_TEXT[family];
  useTitle(name);
  return (
    <section>
      <h1>{name}</h1>
      <FamilyOffNotice family={family} />
      <p>
        <a href={href('approvals')}>Go to the approvals inbox</a>.
      </p>
    </section>
  );
}

function FamilyOffNotice({ family }: { family: Family }) {
  const { name, key } = FAMILY_TEXT[family];
  return (
    <div class="notice family-off" role="status">
      <p>
        <strong>This family is turned off on this host.</strong> {name} are not served here.
      </p>
      {key === '' ? null : (
        <p class="meta">
          The host’s operator turns them on with <code>{key}</code> set to <code>true</code>.
        </p>
      )}
    </div>
  );
}
