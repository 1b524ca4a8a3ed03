// The one way a page names a player: a link to the player's profile (/players/<platformId>), by
// name with the id under it, or by id alone. Ids are long: they wrap anywhere on a phone.
import { Link } from './router.tsx';

/** The service's address of a player (profile, notes, watch), by any id form. */
export const playerApi = (identifier: string) => `/api/players/${encodeURIComponent(identifier)}`;

export const profilePath = (platformId: string) => `/players/${encodeURIComponent(platformId)}`;

export function PlayerLink({
  platformId,
  name,
  showId = false,
  watched = false,
  nameNote,
}: {
  platformId: string;
  name?: string | null;
  /** The id under the name (lists where the id matters: bans, queue). */
  showId?: boolean;
  /** Marked for the moderators (the online list). */
  watched?: boolean;
  /** Said right after the name, before the id (where the name came from). */
  nameNote?: string | false | null;
}) {
  const marker = watched && <span class="badge warn">watched</span>;
  if (!name)
    return (
      <>
        <Link class="mono" href={profilePath(platformId)}>
          {platformId}
        </Link>
        {marker && <> {marker}</>}
      </>
    );
  return (
    <>
      <Link href={profilePath(platformId)}>{name}</Link>
      {nameNote && <span class="muted"> {nameNote}</span>}
      {marker && <> {marker}</>}
      {showId && <div class="mono">{platformId}</div>}
    </>
  );
}
