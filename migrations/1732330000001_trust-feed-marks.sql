-- Up Migration

-- Resume points of the export feed. A mark says: every change of a transaction below `horizon`
-- was committed before `after`. `since = T` resumes from the highest horizon of a mark taken
-- wholly before T, so a change that committed late is served again, never skipped.
CREATE TABLE trust_feed_marks (
  before timestamptz NOT NULL,
  after timestamptz NOT NULL,
  horizon xid8 NOT NULL
);
CREATE INDEX trust_feed_marks_after_idx ON trust_feed_marks (after);

-- Down Migration

DROP TABLE trust_feed_marks;
