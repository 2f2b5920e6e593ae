import InlineSnapshotTesting
import StructuredQueries
import Testing

extension SnapshotTests {
    @Suite struct JSONBShapes {
        @Test func selectWithTrailingComma() {
            assertQuery(
                Row.select { $0.payload.jsonb },
                sql: {
                    """
                    SELECT "rows"."payload"
                    FROM "rows"
                    """
                },
                results: {
                    """
                    ┌────────┐
                    │ "{}"   │
                    └────────┘
                    """
                },
            )
        }

        @Test func sqlOnlyThenComma() {
            assertQuery(Row.all, sql: {
                #"""
                SELECT "rows"."id", "rows"."name" FROM "rows" WHERE ("rows"."name" LIKE '%\%')
                """#
            },)
        }

        @Test func commentBeforeTheClosure() {
            assertQuery(Row.where { $0.id > 1 }) /* sql: */ {
                """
                SELECT "rows"."id" FROM "rows" WHERE ("rows"."id" > 1)
                """
            } results: {
                """
                ┌───┐
                │ 2 │
                └───┘
                """
            }
        }

        @Test func commentsAfterTheClosures() {
            assertQuery(Row.count()) {
                """
                SELECT count(*) FROM "rows"
                """
            } // the statement
            results: {
                """
                ┌───┐
                │ 3 │
                └───┘
                """
            } // three rows
        }

        @Test func noSnapshotsYet() {
            assertQuery(Row.select(\.id),) // recorded on the first run
            assertQuery(
                Row.select { ($0.id, $0.name) },
            )
        }

        @Test func rawStringInTheQuery() {
            assertInlineSnapshot(of: Row.where { $0.name.eq(#"a "quoted" \name"#) }, as: .sql) {
                ##"""
                SELECT "rows"."id" FROM "rows" WHERE ("rows"."name" = 'a "quoted" \name')
                """##
            }
        }

        #if canImport(Darwin)
            @Test func onlyOnApplePlatforms() {
                assertQuery(Row.all, sql: {
                    """
                    SELECT * FROM "rows"
                    """
                },)
            }
        #else
            @Test func elsewhere() {
                assertQuery(Row.all) {
                    """
                    SELECT * FROM "rows"
                    """
                }
            }
        #endif
    }
}
