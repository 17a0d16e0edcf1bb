import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ResourceReadable` on an enum: a `ResourceUnion` conformance whose `members` table lists
/// every case, and an `ID` enum with a case per member (`Contributor.ID.person("12")`).
///
/// ```swift
/// @ResourceReadable
/// enum Contributor {
///     case person(Person)
///     case organization(Organization)
/// }
/// // extension Contributor: JSONAPI.ResourceUnion {
/// //     static let members: [JSONAPI.ResourceUnionMember<Contributor>] = [
/// //         .member(Contributor.person), .member(Contributor.organization),
/// //     ]
/// //     enum ID: JSONAPI.UnionIdentifierConvertible {
/// //         case person(JSONAPI.Identifier<Person>)
/// //         case organization(JSONAPI.Identifier<Organization>)
/// //         …
/// //     }
/// // }
/// ```
///
/// What is checked here, from the syntax alone: the enum is not generic, and every case carries
/// exactly one value, unlabelled or labelled, without a default, whose type is written as a
/// named type (not an optional, array, dictionary, tuple, function or existential); no two cases
/// carry the same type as written; no case is inside `#if`. That each type is a
/// `JSONAPIResource & Decodable` model is checked by the compiler at the generated `.member(…)`.
/// A `members` or `ID` the enum declares itself is kept and not generated.
enum ResourceUnionExpansion {
    /// One case of the union: its name as written, the label of its value (if any), and the
    /// model type as written.
    struct Member {
        var name: String
        var label: String?
        var model: TypeSyntax

        /// The reference to the case's constructor: `person` or `person(value:)`.
        var constructor: String { label.map { "\(name)(\($0):)" } ?? name }
    }

    static func expansion(
        of node: AttributeSyntax,
        attachedTo enumDecl: EnumDeclSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) -> [ExtensionDeclSyntax] {
        if let generics = enumDecl.genericParameterClause {
            context.diagnose(Diagnostic(node: generics, message: UnionMessage.generic))
            return []
        }
        guard let members = self.members(of: enumDecl, in: context) else { return [] }
        guard !members.isEmpty else {
            context.diagnose(Diagnostic(node: node, message: UnionMessage.noCases))
            return []
        }
        let union = type.trimmedDescription
        let access = ResourceReadableMacro.accessModifier(of: enumDecl)
        var declarations: [String] = []
        if !declares("members", in: enumDecl) {
            let entries = members.map { "        .member(\(union).\($0.constructor))," }.joined(separator: "\n")
            declarations.append(
                """
                    \(access)static let members: [JSONAPI.ResourceUnionMember<\(union)>] = [
                \(entries)
                    ]
                """)
        }
        if !declares("ID", in: enumDecl) {
            declarations.append(identifierEnum(members, union: union, access: access))
        }
        let conformance =
            ResourceReadableMacro.conforms(protocols, to: "ResourceUnion") ? ": JSONAPI.ResourceUnion" : ""
        if declarations.isEmpty && conformance.isEmpty { return [] }
        let source: DeclSyntax = """
            extension \(type.trimmed)\(raw: conformance) {
            \(raw: declarations.joined(separator: "\n\n"))
            }
            """
        guard let extensionDecl = source.as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }

    /// `enum ID` with a case per member carrying the member's `Identifier`, converting to and
    /// from the union's `UnionIdentifier`.
    static func identifierEnum(_ members: [Member], union: String, access: String) -> String {
        let cases = members.map { "        case \($0.name)(JSONAPI.Identifier<\($0.model.trimmedDescription)>)" }
        var conversions: [String] = []
        for (position, member) in members.enumerated() {
            let keyword = position == 0 ? "if" : "} else if"
            conversions.append(
                """
                            \(keyword) let id = identifier.identifier(as: \(member.model.trimmedDescription).self) {
                                self = .\(member.name)(id)
                """)
        }
        let switchCases = members.map {
            "            case .\($0.name)(let id): JSONAPI.UnionIdentifier(id, as: \(union).\($0.constructor))"
        }
        return """
                \(access)enum ID: JSONAPI.UnionIdentifierConvertible {
            \(cases.joined(separator: "\n"))

                    \(access)init?(_ identifier: JSONAPI.UnionIdentifier<\(union)>) {
            \(conversions.joined(separator: "\n"))
                        } else {
                            return nil
                        }
                    }

                    \(access)var unionIdentifier: JSONAPI.UnionIdentifier<\(union)> {
                        switch self {
            \(switchCases.joined(separator: "\n"))
                        }
                    }
                }
            """
    }

    /// Whether the enum declares a member named `name` itself (a property or a type).
    static func declares(_ name: String, in enumDecl: EnumDeclSyntax) -> Bool {
        for member in enumDecl.memberBlock.members {
            let decl = member.decl
            if let variable = decl.as(VariableDeclSyntax.self) {
                for binding in variable.bindings {
                    if let pattern = binding.pattern.as(IdentifierPatternSyntax.self),
                        ResourceReadableMacro.unescaped(pattern.identifier.text) == name
                    {
                        return true
                    }
                }
            } else if let nested = decl.asProtocol(NamedDeclSyntax.self), nested.name.text == name {
                return true
            } else if let alias = decl.as(TypeAliasDeclSyntax.self), alias.name.text == name {
                return true
            }
        }
        return false
    }

    /// The cases, each checked; nil after diagnosing one that is not a member.
    static func members(of enumDecl: EnumDeclSyntax, in context: some MacroExpansionContext) -> [Member]? {
        var result: [Member] = []
        var failed = false
        var seen: [String: String] = [:]
        for item in enumDecl.memberBlock.members {
            if item.decl.is(IfConfigDeclSyntax.self) {
                context.diagnose(Diagnostic(node: item.decl, message: UnionMessage.conditionalCases))
                failed = true
                continue
            }
            guard let caseDecl = item.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in caseDecl.elements {
                let name = element.name.text
                guard let parameters = element.parameterClause?.parameters, parameters.count == 1,
                    let parameter = parameters.first
                else {
                    let count = element.parameterClause?.parameters.count ?? 0
                    context.diagnose(Diagnostic(node: element, message: UnionMessage.notOneValue(name, count)))
                    failed = true
                    continue
                }
                if parameter.defaultValue != nil {
                    context.diagnose(Diagnostic(node: parameter, message: UnionMessage.defaultValue(name)))
                    failed = true
                    continue
                }
                guard isNamedType(parameter.type) else {
                    context.diagnose(
                        Diagnostic(
                            node: parameter.type,
                            message: UnionMessage.notAModel(name, parameter.type.trimmedDescription)))
                    failed = true
                    continue
                }
                let model = parameter.type.trimmedDescription
                if let earlier = seen[model] {
                    context.diagnose(
                        Diagnostic(node: element, message: UnionMessage.sameModel(earlier, name, model)))
                    failed = true
                    continue
                }
                seen[model] = name
                let label = parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0.text }
                result.append(Member(name: name, label: label, model: parameter.type))
            }
        }
        return failed ? nil : result
    }

    /// Whether `type` is written as a named type (`Person`, `Models.Person`, `Box<Person>`),
    /// the only kind of type that can be a model.
    static func isNamedType(_ type: TypeSyntax) -> Bool {
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return !["Optional", "Array", "Dictionary", "Set", "Any", "Self"].contains(identifier.name.text)
        }
        if let member = type.as(MemberTypeSyntax.self) {
            return
                !(member.baseType.trimmedDescription == "Swift"
                && ["Optional", "Array", "Dictionary", "Set"].contains(member.name.text))
        }
        return false
    }
}

enum UnionMessage: DiagnosticMessage {
    case generic
    case noCases
    case conditionalCases
    case notOneValue(String, Int)
    case defaultValue(String)
    case notAModel(String, String)
    case sameModel(String, String, String)

    var message: String {
        switch self {
        case .generic:
            "@ResourceReadable cannot make a generic enum a ResourceUnion (its members table is a static stored property); write the conformance by hand"
        case .noCases:
            "@ResourceReadable on an enum makes it a ResourceUnion, which needs at least one case carrying a model, such as 'case person(Person)'"
        case .conditionalCases:
            "@ResourceReadable cannot read cases inside '#if'; declare the union's cases unconditionally or write its members table by hand"
        case .notOneValue(let name, let count):
            "@ResourceReadable: case '\(name)' carries \(count == 0 ? "no value" : "\(count) values"); each case of a union carries exactly one model, such as 'case \(name)(Model)'"
        case .defaultValue(let name):
            "@ResourceReadable: case '\(name)' gives its model a default value; a union's case carries the decoded model only"
        case .notAModel(let name, let type):
            "@ResourceReadable: case '\(name)' carries '\(type)', which cannot be a model; each case carries one JSONAPIResource type, such as 'case \(name)(Model)'"
        case .sameModel(let first, let second, let type):
            "@ResourceReadable: cases '\(first)' and '\(second)' both carry '\(type)'; a resource's type must pick exactly one case"
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .generic: id = "unionGeneric"
        case .noCases: id = "unionNoCases"
        case .conditionalCases: id = "unionConditionalCases"
        case .notOneValue: id = "unionNotOneValue"
        case .defaultValue: id = "unionDefaultValue"
        case .notAModel: id = "unionNotAModel"
        case .sameModel: id = "unionSameModel"
        }
        return MessageID(domain: "JSONAPIMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}
