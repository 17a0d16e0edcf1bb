import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct JSONAPIMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ResourceReadableMacro.self]
}
