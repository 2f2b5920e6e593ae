import MacroTesting
import XCTest

final class StringifyMacroShapes: XCTestCase {
    override func invokeTest() {
        withMacroTesting(record: .missing, macros: ["stringify": StringifyMacro.self]) {
            super.invokeTest()
        }
    }

    func testExpansionWithCommentBetween() {
        assertMacro {
            """
            #stringify(a + b)
            """
        } // the source
        expansion: {
            """
            (a + b, "a + b")
            """
        }
    }

    func testDiagnosticsBeforeAnExpansionThatStays() {
        assertMacro {
            #"""
            #stringify("\(x)")
            """#
        } diagnostics: {
            """
            #stringify("\(x)")
            ┬─────────────────
            ╰─ 🛑 interpolation is not supported
            """
        } fixes: {
            """
            """
        } expansion: {
            """
            """
        }
    }

    func testBlockCommentsBeforeLabels() {
        assertMacro(["stringify": StringifyMacro.self],) {
            """
            #stringify(1)
            """
        } /* no diagnostics */ expansion: {
            """
            (1, "1")
            """
        }
    }

    func testNothingRecordedYet() {
        assertMacro(record: .missing,) {
            """
            #stringify(x)
            """
        }
    }

    func testCallsAmongIfClauses() {
        #if os(Linux)
            assertMacro { "#stringify(linux)" }
        #elseif os(macOS)
            assertMacro { "#stringify(mac)" } expansion: {
                """
                (mac, "mac")
                """
            }
        #endif
    }
}
