import JSONAPIMacrosExpansion
import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

// The compiler plug-in only names the macros; their expansions live in `JSONAPIMacrosExpansion`,
// an ordinary target, so that the expansion tests depend on it and not on this macro target (a
// test target that depends on a macro target is built for the host, and with it the whole test
// product and every framework it uses, a second time).
@main
struct JSONAPIMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ResourceReadableMacro.self]
}

/// `@ResourceReadable` as the compiler finds it: `#externalMacro(module: "JSONAPIMacrosPlugin",
/// type: "ResourceReadableMacro")` names a type of this module, and the plug-in resolves it by its
/// qualified name, so the expansion is reached through this type.
public struct ResourceReadableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) -> [ExtensionDeclSyntax] {
        JSONAPIMacrosExpansion.ResourceReadableMacro.expansion(
            of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
    }
}
