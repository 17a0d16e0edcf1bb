/// The words and names generated text is made of.
///
/// Every entry is already valid JSON string content: the plain and Unicode words hold no quote,
/// backslash or control character, and the escape tokens are complete JSON escape sequences
/// (surrogate-pair escapes always come as a valid high/low pair).
enum Vocabulary {
    /// Lower-case ASCII words, the bulk of all text (128 of them, so 7 random bits pick one).
    static let words: [StaticString] = [
        "the", "of", "and", "to", "in", "is", "for", "on", "with", "as",
        "that", "it", "by", "this", "from", "at", "an", "be", "are", "or",
        "we", "can", "not", "all", "but", "more", "one", "when", "which", "their",
        "swift", "parser", "document", "resource", "server", "client", "request", "response", "schema", "field",
        "value", "array", "object", "string", "number", "buffer", "memory", "allocation", "arena", "index",
        "offset", "token", "scanner", "builder", "encoder", "decoder", "payload", "relationship", "linkage", "include",
        "attribute", "identifier", "cache", "latency", "throughput", "benchmark", "release", "version", "protocol",
        "generic",
        "compiler", "runtime", "thread", "queue", "actor", "task", "stream", "chunk", "byte", "pointer",
        "simple", "fast", "small", "large", "careful", "modern", "robust", "lazy", "eager", "strict",
        "write", "read", "parse", "build", "measure", "profile", "optimize", "validate", "render", "serve",
        "today", "later", "often", "rarely", "always", "never", "again", "quickly", "slowly", "together",
        "article", "comment", "author", "reader", "editor", "story", "chapter", "review", "draft", "note",
        "network", "database", "storage", "service", "library", "package", "module", "feature",
    ]

    /// Words written as raw multi-byte UTF-8: Latin accents, CJK, Greek, Cyrillic and emoji
    /// (including a skin-tone modifier and a ZWJ sequence). 32 of them.
    static let unicodeWords: [StaticString] = [
        "café", "naïve", "résumé", "über", "façade", "Zürich", "São", "niño",
        "漢字", "日本語", "東京", "中文", "한국어", "Ελληνικά", "русский", "Ангстрем",
        "😀", "🚀", "👍🏽", "🎉", "❤️", "👩‍💻", "✨", "🔥",
        "crème", "brûlée", "Ærø", "Łódź", "Øresund", "İstanbul", "Straße", "½",
    ]

    /// JSON escape sequences as they appear in the raw text (16 of them).
    static let escapeTokens: [StaticString] = [
        #"\"quoted\""#, #"caf\u00e9"#, #"\ud83d\ude00"#, #"tab\tseparated"#,
        #"path\/to\/file"#, #"back\\slash"#, #"\u2603"#, #"\u00fcber"#,
        #"\ud83d\ude80"#, #"line\r\nbreak"#, #"\u65e5\u672c"#, #"\"Swift\""#,
        #"\ud83c\udf89"#, #"x\u0000y"#, #"\u00e9t\u00e9"#, #"\b\f"#,
    ]

    /// Whole sentences that open an escaped body; the first one holds every escape kind.
    static let escapeSentences: [StaticString] = [
        #"She said \"this is fast\" \ud83d\ude00 and wrote caf\u00e9 on the board\n"#,
        #"The log read: \"parse\\tfailed at offset 42\" \u2014 then \ud83d\ude80 it worked.\n"#,
        #"Quote of the day: \"Premature optimization\" \u2026 \ud83d\udc4d\n\n"#,
        #"Path \/var\/tmp\/data.json held \u00fcber-sized \"payloads\"\t\ud83c\udf89\n"#,
    ]

    /// First names: how they are shown, and an ASCII form for e-mail addresses and handles.
    static let firstNames: [(display: StaticString, ascii: StaticString)] = [
        ("Ada", "ada"), ("José", "jose"), ("Zoë", "zoe"), ("Łukasz", "lukasz"),
        ("Søren", "soren"), ("Amélie", "amelie"), ("Grace", "grace"), ("Björn", "bjorn"),
        ("Yuki", "yuki"), ("美咲", "misaki"), ("Олег", "oleg"), ("Αλέξης", "alexis"),
        ("Priya", "priya"), ("Mohammed", "mohammed"), ("Chloé", "chloe"), ("Linus", "linus"),
    ]

    /// Last names, shown and ASCII.
    static let lastNames: [(display: StaticString, ascii: StaticString)] = [
        ("Lovelace", "lovelace"), ("García", "garcia"), ("Müller", "muller"), ("Kowalski", "kowalski"),
        ("Kierkegaard", "kierkegaard"), ("Dupré", "dupre"), ("Hopper", "hopper"), ("Ångström", "angstrom"),
        ("Tanaka", "tanaka"), ("佐藤", "sato"), ("Иванов", "ivanov"), ("Παπαδόπουλος", "papadopoulos"),
        ("Patel", "patel"), ("Al-Farsi", "alfarsi"), ("O'Brien", "obrien"), ("Torvalds", "torvalds"),
    ]

    /// Tag colours, as CSS hex strings.
    static let colors: [StaticString] = [
        "#e11d48", "#f97316", "#eab308", "#22c55e", "#06b6d4", "#3b82f6", "#8b5cf6", "#ec4899",
    ]
}
