import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ResourceReadable`: an extension with `init(from: ResourceReader)` that reads the stored
/// properties of a struct exactly as the synthesized `init(from: any Decoder)` would.
///
/// The rules follow the compiler's `Decodable` synthesis:
/// - every stored instance property is read, except a `let` with an initial value;
/// - the key is the property's name, or its `CodingKeys` case's raw value when the type
///   declares `CodingKeys` (then properties without a case are not read at all);
/// - a property written as `T?`, `T!` or `Optional<T>` is read with `decodeIfPresent`, any other
///   with `decode`; a `var` declared with a default value (`var views: Int = 0`) with
///   `decode(_:default:)`, which reads it as `decode` does, except that a lenient decode keeps
///   the default when the member is missing or unreadable (and reports it kept).
///
/// When the struct has its implicit memberwise initializer (it declares no initializer, no
/// `private` stored property, no property wrapper), the reads are that initializer's arguments;
/// otherwise each is assigned to its property. A default value is copied into the argument only
/// when it is a literal (or an implicit member such as `.draft`), which means the same wherever
/// it is written; any other default (a call, a name of the enclosing scope, which an extension
/// does not see) has each property assigned, and reads the default from the property itself.
struct ResourceReadableMacro: ExtensionMacro {
    static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) -> [ExtensionDeclSyntax] {
        if let enumDecl = declaration.as(EnumDeclSyntax.self) {
            return ResourceUnionExpansion.expansion(
                of: node, attachedTo: enumDecl, providingExtensionsOf: type, conformingTo: protocols, in: context)
        }
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: MacroMessage.notAStruct))
            return []
        }
        let keys: [String: String]?
        switch codingKeys(of: structDecl, in: context) {
        case .absent: keys = nil
        case .keys(let found): keys = found
        case .failed: return []
        }
        var reads: [Read] = []
        var failed = false
        for member in structDecl.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            guard let properties = storedProperties(of: variable, in: context) else {
                failed = true
                continue
            }
            for property in properties {
                let key: String
                if let keys {
                    guard let mapped = keys[property.name] else { continue }
                    key = mapped
                } else {
                    key = property.name
                }
                // The type is left to inference from the property: written out, it would be
                // resolved in the extension's scope, where the sibling types of a nested type
                // are not visible.
                reads.append(Read(property: property, key: literal(key)))
            }
        }
        if failed { return [] }
        let access = accessModifier(of: structDecl)
        let conformance = conforms(protocols, to: "ResourceReadable") ? ": JSONAPI.ResourceReadable" : ""
        let body: String
        if !reads.isEmpty && hasMemberwiseInitializer(structDecl)
            && reads.allSatisfy({ $0.property.defaultValue.map(isSelfContained) ?? true })
        {
            // One call of the memberwise initializer builds the value at once. Assigned a
            // property at a time, `self` is built in memory and returned as a copy (a retain and a
            // release for every reference it holds): the optimizer does not pair the two.
            let arguments = reads.map { read in
                "            \(read.property.reference): \(read.call(default: read.property.defaultValue?.trimmedDescription))"
            }
            body = "        try self.init(\n\(arguments.joined(separator: ",\n"))\n        )"
        } else {
            // The property already holds its default here: initial values are set first.
            body = reads.map { read in
                let call = read.call(default: read.property.defaultValue.map { _ in "self.\(read.property.reference)" })
                return "        self.\(read.property.reference) = try \(call)"
            }.joined(separator: "\n")
        }
        let source: DeclSyntax = """
            extension \(type.trimmed)\(raw: conformance) {
                \(raw: access)init(from reader: borrowing JSONAPI.ResourceReader) throws {
            \(raw: body)
                }
            }
            """
        guard let extensionDecl = source.as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }

    /// Whether `protocols` (the conformances the type still lacks) has `name`.
    static func conforms(_ protocols: [TypeSyntax], to name: String) -> Bool {
        protocols.contains { $0.trimmedDescription == name || $0.trimmedDescription == "JSONAPI.\(name)" }
    }

    /// Whether the struct certainly has the implicit memberwise initializer, with one parameter
    /// per stored property in declaration order, reachable from an extension in the same file:
    /// it declares no initializer, no `private` or `fileprivate` stored property, no property
    /// wrapper and nothing conditionally compiled.
    static func hasMemberwiseInitializer(_ structDecl: StructDeclSyntax) -> Bool {
        for member in structDecl.memberBlock.members {
            if member.decl.is(InitializerDeclSyntax.self) || member.decl.is(IfConfigDeclSyntax.self)
                || member.decl.is(MacroExpansionDeclSyntax.self)
            {
                return false
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let modifiers = variable.modifiers
            if modifiers.contains(where: {
                $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
            }) {
                continue
            }
            if !variable.attributes.isEmpty { return false }
            for modifier in modifiers where modifier.detail == nil {
                switch modifier.name.tokenKind {
                case .keyword(.private), .keyword(.fileprivate): return false
                default: continue
                }
            }
        }
        return true
    }

    /// A stored property to read.
    struct Property {
        /// The name as written after `self.` (with backticks if it had them).
        var reference: String
        /// The name without backticks: the default key.
        var name: String
        /// Written as `T?`, `T!` or `Optional<T>`.
        var isOptional: Bool
        /// The initial value of a non-optional `var` (`var views: Int = 0`), kept when a lenient
        /// decode cannot read the member. (An optional's is not: the compiler's `init(from:)`
        /// reads a missing optional as `nil`, and so does the reader.)
        var defaultValue: ExprSyntax?
    }

    /// One property's read.
    struct Read {
        var property: Property
        /// The member's name as a string literal.
        var key: String

        /// The reader call; `defaultValue` is the expression of the default to keep, if any.
        func call(default defaultValue: String?) -> String {
            if property.isOptional { return "reader.decodeIfPresent(\(key))" }
            if let defaultValue { return "reader.decode(\(key), default: \(defaultValue))" }
            return "reader.decode(\(key))"
        }
    }

    /// Whether a default value means the same in the generated extension as in the struct: a
    /// literal, a negated number, an array or dictionary of those, or an implicit member
    /// (`.draft`, `.absent`, `.init()`, `.value(1)`) with such arguments. A name is resolved
    /// in the scope it is written in, and an extension does not see an enclosing type's
    /// members.
    static func isSelfContained(_ expression: ExprSyntax) -> Bool {
        if expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self)
            || expression.is(BooleanLiteralExprSyntax.self) || expression.is(NilLiteralExprSyntax.self)
        {
            return true
        }
        if let string = expression.as(StringLiteralExprSyntax.self) {
            return string.segments.allSatisfy { $0.is(StringSegmentSyntax.self) }
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self) {
            return prefix.operator.text == "-"
                && (prefix.expression.is(IntegerLiteralExprSyntax.self)
                    || prefix.expression.is(FloatLiteralExprSyntax.self))
        }
        if let array = expression.as(ArrayExprSyntax.self) {
            return array.elements.allSatisfy { isSelfContained($0.expression) }
        }
        if let dictionary = expression.as(DictionaryExprSyntax.self) {
            switch dictionary.content {
            case .colon: return true
            case .elements(let elements):
                return elements.allSatisfy { isSelfContained($0.key) && isSelfContained($0.value) }
            }
        }
        if let member = expression.as(MemberAccessExprSyntax.self) {
            return member.base == nil
        }
        if let call = expression.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil
        {
            return call.trailingClosure == nil && call.additionalTrailingClosures.isEmpty
                && call.arguments.allSatisfy { isSelfContained($0.expression) }
        }
        return false
    }

    /// The properties of `variable` that decoding sets (none for static, computed and `let` with
    /// an initial value); nil after diagnosing a property the macro cannot read.
    static func storedProperties(of variable: VariableDeclSyntax, in context: some MacroExpansionContext)
        -> [Property]?
    {
        let modifiers = variable.modifiers.map(\.name.tokenKind)
        if modifiers.contains(.keyword(.static)) || modifiers.contains(.keyword(.class)) { return [] }
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        if modifiers.contains(.keyword(.lazy)) {
            context.diagnose(Diagnostic(node: variable, message: MacroMessage.lazyProperty))
            return nil
        }
        var result: [Property] = []
        // `var a, b: Int`: the type written on a later binding applies to the earlier ones.
        var laterType: TypeSyntax?
        for binding in variable.bindings.reversed() {
            if let explicit = binding.typeAnnotation?.type { laterType = explicit }
            if let accessors = binding.accessorBlock, isComputed(accessors) { continue }
            if isLet && binding.initializer != nil { continue }
            guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
                context.diagnose(Diagnostic(node: binding.pattern, message: MacroMessage.unsupportedPattern))
                return nil
            }
            guard let type = binding.typeAnnotation?.type ?? laterType else {
                context.diagnose(
                    Diagnostic(node: binding, message: MacroMessage.missingType(pattern.identifier.text)))
                return nil
            }
            let reference = pattern.identifier.text
            let optional = isOptional(type)
            result.append(
                Property(
                    reference: reference, name: unescaped(reference), isOptional: optional,
                    defaultValue: optional ? nil : binding.initializer?.value))
        }
        return result.reversed()
    }

    /// Whether an accessor block makes a computed property (a getter), rather than observers.
    static func isComputed(_ accessors: AccessorBlockSyntax) -> Bool {
        switch accessors.accessors {
        case .getter:
            return true
        case .accessors(let list):
            return list.contains { accessor in
                switch accessor.accessorSpecifier.tokenKind {
                case .keyword(.willSet), .keyword(.didSet): return false
                default: return true
                }
            }
        }
    }

    /// Whether `type` is written `T?`, `T!`, `Optional<T>` or `Swift.Optional<T>`.
    static func isOptional(_ type: TypeSyntax) -> Bool {
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return identifier.name.text == "Optional" && identifier.genericArgumentClause != nil
        }
        if let member = type.as(MemberTypeSyntax.self) {
            return member.baseType.trimmedDescription == "Swift" && member.name.text == "Optional"
                && member.genericArgumentClause != nil
        }
        return false
    }

    /// What a struct's `CodingKeys` say.
    enum CodingKeysLookup {
        /// The struct declares no `CodingKeys`: every property is read under its own name.
        case absent
        /// The key of each case, by case name.
        case keys([String: String])
        /// A case could not be read (diagnosed).
        case failed
    }

    /// The keys of `CodingKeys` by case name, when the struct declares that enum.
    static func codingKeys(of structDecl: StructDeclSyntax, in context: some MacroExpansionContext)
        -> CodingKeysLookup
    {
        for member in structDecl.memberBlock.members {
            guard let enumDecl = member.decl.as(EnumDeclSyntax.self), enumDecl.name.text == "CodingKeys" else {
                continue
            }
            var keys: [String: String] = [:]
            for enumMember in enumDecl.memberBlock.members {
                guard let caseDecl = enumMember.decl.as(EnumCaseDeclSyntax.self) else { continue }
                for element in caseDecl.elements {
                    let name = unescaped(element.name.text)
                    guard let rawValue = element.rawValue?.value else {
                        keys[name] = name
                        continue
                    }
                    guard let text = staticText(of: rawValue) else {
                        context.diagnose(Diagnostic(node: rawValue, message: MacroMessage.unsupportedRawValue))
                        return .failed
                    }
                    keys[name] = text
                }
            }
            return .keys(keys)
        }
        return .absent
    }

    /// The value of a string literal without interpolations.
    static func staticText(of expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let piece = segment.as(StringSegmentSyntax.self) else { return nil }
            guard case .stringSegment(let content) = piece.content.tokenKind else { return nil }
            guard let decoded = unescapeLiteralSegment(content) else { return nil }
            text += decoded
        }
        return text
    }

    /// The value of a literal segment's escapes (`\\`, `\"`, `\n`, `\t`, `\r`, `\0`, `\'`,
    /// `\u{…}`); nil for anything else.
    static func unescapeLiteralSegment(_ content: String) -> String? {
        var result = ""
        var iterator = content.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else {
                result.unicodeScalars.append(scalar)
                continue
            }
            guard let escape = iterator.next() else { return nil }
            switch escape {
            case "\\": result += "\\"
            case "\"": result += "\""
            case "'": result += "'"
            case "n": result += "\n"
            case "t": result += "\t"
            case "r": result += "\r"
            case "0": result += "\0"
            case "u":
                guard iterator.next() == "{" else { return nil }
                var hex = ""
                while let digit = iterator.next(), digit != "}" { hex.unicodeScalars.append(digit) }
                guard let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) else { return nil }
                result.unicodeScalars.append(decoded)
            default:
                return nil
            }
        }
        return result
    }

    /// A Swift string literal whose value is `text`.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    static func unescaped(_ identifier: String) -> String {
        identifier.hasPrefix("`") && identifier.hasSuffix("`") && identifier.count >= 2
            ? String(identifier.dropFirst().dropLast()) : identifier
    }

    /// `public ` or `package ` when the type is, so the initializer can witness the
    /// conformance; nothing otherwise.
    static func accessModifier(of declaration: some DeclGroupSyntax) -> String {
        for modifier in declaration.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }
}

enum MacroMessage: DiagnosticMessage {
    case notAStruct
    case lazyProperty
    case unsupportedPattern
    case missingType(String)
    case unsupportedRawValue

    var message: String {
        switch self {
        case .notAStruct:
            "@ResourceReadable applies to structs, and to enums whose cases each carry one model (a class keeps its init(from: any Decoder))"
        case .lazyProperty:
            "@ResourceReadable cannot read a lazy property; make it a stored or computed property"
        case .unsupportedPattern:
            "@ResourceReadable reads properties declared one name at a time, not tuple patterns"
        case .missingType(let name):
            "@ResourceReadable needs the type of '\(name)' written out (': Type')"
        case .unsupportedRawValue:
            "@ResourceReadable needs each CodingKeys raw value to be a plain string literal"
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .notAStruct: id = "notAStruct"
        case .lazyProperty: id = "lazyProperty"
        case .unsupportedPattern: id = "unsupportedPattern"
        case .missingType: id = "missingType"
        case .unsupportedRawValue: id = "unsupportedRawValue"
        }
        return MessageID(domain: "JSONAPIMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}
