import MacroTesting
import Testing

@Suite(.macros([MemberwiseMacro.self], record: .missing))
struct MemberwiseShapes {
    @Test func rawStringsAndFourSpaces() {
        assertMacro {
            ##"""
            @Memberwise
            struct Path {
                var value = #"C:\Users"#
            }
            """##
        } expansion: {
            ##"""
            struct Path {
                var value = #"C:\Users"#

                init(value: String = #"C:\Users"#) {
                    self.value = value
                }
            }
            """##
        }
    }

    @Test func diagnosticsAndFixes() {
        assertMacro {
            """
            @Memberwise
            enum E {}
            """
        } diagnostics: {
            """
            @Memberwise
            ┬──────────
            ╰─ 🛑 @Memberwise applies to structs only
               ✏️ Remove '@Memberwise'
            enum E {}
            """
        } fixes: {
            """
            enum E {}
            """
        } // fixed
        expansion: {
            """
            enum E {}
            """
        }
    }

    @Test func snapshotsInsideArrays() {
        let checks: [() -> Void] = [
            {
                assertInlineSnapshot(of: 1, as: .description) {
                    """
                    1
                    """
                }
            },
            { assertInlineSnapshot(of: 2, as: .description) },
        ]
        checks.forEach { $0() }
    }

    @Test func commentsInsideTheArguments() {
        assertInlineSnapshot(
            of: [1, 2], // the value
            as: .dump, /* the strategy */
        ) {
            """
            ▿ 2 elements
              - 1
              - 2

            """
        }
    }
}
