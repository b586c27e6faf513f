-- Opt-in public badge URLs: an unguessable token per check or group that serves its SVG badge
-- without an API key (for READMEs and wikis). Deleting the token revokes the URL; deleting the
-- check or group deletes its token.
CREATE TABLE public_badges (
  token text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  check_id uuid REFERENCES checks(id) ON DELETE CASCADE,
  group_id integer REFERENCES check_groups(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((check_id IS NULL) <> (group_id IS NULL))
);
CREATE UNIQUE INDEX public_badges_check ON public_badges (check_id) WHERE check_id IS NOT NULL;
CREATE UNIQUE INDEX public_badges_group ON public_badges (group_id) WHERE group_id IS NOT NULL;
