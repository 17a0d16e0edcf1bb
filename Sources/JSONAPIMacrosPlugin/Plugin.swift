import SwiftCompilerPlugin
import SwiftSyntaxMacros

// The compiler plug-in and the macros it provides. The expansion tests run this executable as the
// compiler does (Tests/JSONAPIMacrosTests/MacroPlugin.swift): no test target depends on a macro
// target (which would build the test product and every framework it uses for the host, a second
// time) or on swift-syntax (which would build swift-syntax a second time, for the tests).
@main
struct JSONAPIMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ResourceReadableMacro.self]
}
