// simdjson on the files scripts/native-bench measures ours on, in the same run: the DOM parse
// (dom::parser::parse, simdjson's document build) and On-Demand reading each corpus shape's
// resources into C++ structs that mirror CorpusModels (Sources/JSONAPIGenerator/Corpus): every
// attribute read into a field, every string copied into a std::string, linkage resolved to the
// included resource it names -- the work a typed decode does.
//
// Built by scripts/native-bench with g++ -O3 -std=c++17 ... -lsimdjson (Debian's libsimdjson-dev
// 3.0.1); not part of the Swift package.
//
// Usage: simdjson_bench [--runs N | --once] [--mode dom|ondemand] [--shape SHAPE] FILE
//        simdjson_bench --implementation   (the kernel simdjson chose for this CPU, e.g. haswell)
//   Prints "MODE BYTES RUNS MEDIAN_SECONDS MBPS" per mode run (MB/s = 10^6 bytes per second).
//   --once parses once (for callgrind). Without --mode, runs dom, then ondemand when --shape
//   names a corpus shape (unicode, numbers, tiny, long-strings, ids).
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

using namespace simdjson;

namespace {

// ---------------------------------------------------------------------------------------------
// Reading helpers (exceptions on: any error aborts the run, as a failed decode would).

std::string string_of(ondemand::value value) {
    std::string_view text = value.get_string();
    return std::string(text);
}

std::optional<std::string> optional_string(ondemand::value value) {
    if (value.is_null()) return std::nullopt;
    return string_of(value);
}

std::optional<double> optional_double(ondemand::value value) {
    if (value.is_null()) return std::nullopt;
    return double(value.get_double());
}

std::optional<int64_t> optional_int(ondemand::value value) {
    if (value.is_null()) return std::nullopt;
    return int64_t(value.get_int64());
}

struct Identifier {
    std::string type;
    std::string id;
};

Identifier identifier_of(ondemand::value value) {
    Identifier result;
    for (ondemand::field field : value.get_object()) {
        std::string_view key = field.unescaped_key();
        if (key == "type") {
            result.type = string_of(field.value());
        } else if (key == "id") {
            result.id = string_of(field.value());
        }
    }
    return result;
}

// A primary resource's relationships: a to-one and a to-many, as linkage, then resolved.
template <class Included>
struct Links {
    std::optional<Identifier> one;
    std::vector<Identifier> many;
    const Included* one_resolved = nullptr;
    std::vector<const Included*> many_resolved;
};

template <class Included>
void read_relationships(ondemand::value value, std::string_view to_one, Links<Included>& links) {
    for (ondemand::field relationship : value.get_object()) {
        std::string_view name = relationship.unescaped_key();
        bool one = name == to_one;
        for (ondemand::field member : relationship.value().get_object()) {
            std::string_view key = member.unescaped_key();
            if (key != "data") continue;
            ondemand::value data = member.value();
            if (one) {
                if (!data.is_null()) links.one = identifier_of(data);
            } else {
                for (ondemand::value element : data.get_array()) links.many.push_back(identifier_of(element));
            }
        }
    }
}

// Reads one resource object: `type` and `id` into the struct, each attribute through `attribute`,
// the relationships through `relationships` (members in any order).
template <class Resource, class Attribute, class Relationships>
Resource read_resource(ondemand::value value, Attribute attribute, Relationships relationships) {
    Resource resource;
    for (ondemand::field field : value.get_object()) {
        std::string_view key = field.unescaped_key();
        if (key == "id") {
            resource.id = string_of(field.value());
        } else if (key == "type") {
            resource.type = string_of(field.value());
        } else if (key == "attributes") {
            for (ondemand::field member : field.value().get_object()) {
                std::string_view name = member.unescaped_key();
                attribute(resource, name, member.value());
            }
        } else if (key == "relationships") {
            relationships(resource, field.value());
        }
    }
    return resource;
}

// The whole document: `data` into primaries, `included` into included, then linkage resolved
// through a (type, id) table. Returns the number of primary resources.
template <class Primary, class Included, class ReadPrimary, class ReadIncluded>
size_t read_document(ondemand::document& document, std::vector<Primary>& primaries,
                     std::vector<Included>& included, ReadPrimary read_primary, ReadIncluded read_included) {
    for (ondemand::field field : document.get_object()) {
        std::string_view key = field.unescaped_key();
        if (key == "data") {
            for (ondemand::value element : field.value().get_array()) primaries.push_back(read_primary(element));
        } else if (key == "included") {
            for (ondemand::value element : field.value().get_array()) included.push_back(read_included(element));
        }
    }
    std::unordered_map<std::string, const Included*> table;
    table.reserve(included.size());
    for (const Included& resource : included) table.emplace(resource.type + '\0' + resource.id, &resource);
    auto find = [&](const Identifier& identifier) -> const Included* {
        auto found = table.find(identifier.type + '\0' + identifier.id);
        if (found == table.end()) throw std::runtime_error("unresolved linkage " + identifier.id);
        return found->second;
    };
    for (Primary& primary : primaries) {
        if (primary.links.one) primary.links.one_resolved = find(*primary.links.one);
        for (const Identifier& identifier : primary.links.many) primary.links.many_resolved.push_back(find(identifier));
    }
    return primaries.size();
}

// ---------------------------------------------------------------------------------------------
// The shapes' structs, mirroring CorpusModels.

struct Writer {
    std::string type, id, name, bio;
    std::optional<std::string> homepage;
};
struct Post {
    std::string type, id, headline, body, locale;
    std::vector<std::string> reactions;
    Links<Writer> links;
};

struct Calibration {
    double offset = 0;
    std::optional<double> gain;
};
struct Bounds {
    double lo = 0, hi = 0;
    std::optional<int64_t> exponent;
    std::optional<Calibration> calibration;
};
struct Station {
    std::string type, id;
    double latitude = 0, longitude = 0;
    std::optional<int64_t> elevation;
};
struct Measurement {
    std::string type, id;
    double value = 0, delta = 0;
    int64_t count = 0;
    std::optional<double> scale;
    Bounds bounds;
    std::vector<double> samples;
    std::optional<int64_t> flags;
    Links<Station> links;
};

struct Host {
    std::string type, id;
    int64_t n = 0;
};
struct Ping {
    std::string type, id;
    int64_t v = 0;
    Links<Host> links;
};

struct Editor {
    std::string type, id, name, notes;
};
struct Manuscript {
    std::string type, id, title, content, summary;
    Links<Editor> links;
};

struct Ref {
    std::string type, id, label;
};
struct Entity {
    std::string type, id, label;
    int64_t rank = 0;
    Links<Ref> links;
};

template <class Included>
auto relationships_named(std::string_view to_one) {
    return [to_one](auto& resource, ondemand::value value) { read_relationships(value, to_one, resource.links); };
}
auto no_relationships = [](auto&, ondemand::value) {};

size_t read_unicode(ondemand::document& document) {
    std::vector<Post> posts;
    std::vector<Writer> writers;
    auto post = [](ondemand::value value) {
        return read_resource<Post>(
            value,
            [](Post& p, std::string_view name, ondemand::value v) {
                if (name == "headline") p.headline = string_of(v);
                else if (name == "body") p.body = string_of(v);
                else if (name == "locale") p.locale = string_of(v);
                else if (name == "reactions")
                    for (ondemand::value e : v.get_array()) p.reactions.push_back(string_of(e));
            },
            relationships_named<Writer>("author"));
    };
    auto writer = [](ondemand::value value) {
        return read_resource<Writer>(
            value,
            [](Writer& w, std::string_view name, ondemand::value v) {
                if (name == "name") w.name = string_of(v);
                else if (name == "bio") w.bio = string_of(v);
                else if (name == "homepage") w.homepage = optional_string(v);
            },
            no_relationships);
    };
    return read_document(document, posts, writers, post, writer);
}

size_t read_numbers(ondemand::document& document) {
    std::vector<Measurement> measurements;
    std::vector<Station> stations;
    auto measurement = [](ondemand::value value) {
        return read_resource<Measurement>(
            value,
            [](Measurement& m, std::string_view name, ondemand::value v) {
                if (name == "value") m.value = v.get_double();
                else if (name == "delta") m.delta = v.get_double();
                else if (name == "count") m.count = v.get_int64();
                else if (name == "scale") m.scale = optional_double(v);
                else if (name == "flags") m.flags = optional_int(v);
                else if (name == "samples")
                    for (ondemand::value e : v.get_array()) m.samples.push_back(e.get_double());
                else if (name == "bounds") {
                    for (ondemand::field f : v.get_object()) {
                        std::string_view key = f.unescaped_key();
                        if (key == "lo") m.bounds.lo = f.value().get_double();
                        else if (key == "hi") m.bounds.hi = f.value().get_double();
                        else if (key == "exponent") m.bounds.exponent = optional_int(f.value());
                        else if (key == "calibration") {
                            ondemand::value c = f.value();
                            if (c.is_null()) continue;
                            Calibration calibration;
                            for (ondemand::field g : c.get_object()) {
                                std::string_view inner = g.unescaped_key();
                                if (inner == "offset") calibration.offset = g.value().get_double();
                                else if (inner == "gain") calibration.gain = optional_double(g.value());
                            }
                            m.bounds.calibration = calibration;
                        }
                    }
                }
            },
            relationships_named<Station>("station"));
    };
    auto station = [](ondemand::value value) {
        return read_resource<Station>(
            value,
            [](Station& s, std::string_view name, ondemand::value v) {
                if (name == "latitude") s.latitude = v.get_double();
                else if (name == "longitude") s.longitude = v.get_double();
                else if (name == "elevation") s.elevation = optional_int(v);
            },
            no_relationships);
    };
    return read_document(document, measurements, stations, measurement, station);
}

size_t read_tiny(ondemand::document& document) {
    std::vector<Ping> pings;
    std::vector<Host> hosts;
    auto ping = [](ondemand::value value) {
        return read_resource<Ping>(
            value,
            [](Ping& p, std::string_view name, ondemand::value v) {
                if (name == "v") p.v = v.get_int64();
            },
            relationships_named<Host>("origin"));
    };
    auto host = [](ondemand::value value) {
        return read_resource<Host>(
            value,
            [](Host& h, std::string_view name, ondemand::value v) {
                if (name == "n") h.n = v.get_int64();
            },
            no_relationships);
    };
    return read_document(document, pings, hosts, ping, host);
}

size_t read_long_strings(ondemand::document& document) {
    std::vector<Manuscript> manuscripts;
    std::vector<Editor> editors;
    auto manuscript = [](ondemand::value value) {
        return read_resource<Manuscript>(
            value,
            [](Manuscript& m, std::string_view name, ondemand::value v) {
                if (name == "title") m.title = string_of(v);
                else if (name == "content") m.content = string_of(v);
                else if (name == "summary") m.summary = string_of(v);
            },
            relationships_named<Editor>("editor"));
    };
    auto editor = [](ondemand::value value) {
        return read_resource<Editor>(
            value,
            [](Editor& e, std::string_view name, ondemand::value v) {
                if (name == "name") e.name = string_of(v);
                else if (name == "notes") e.notes = string_of(v);
            },
            no_relationships);
    };
    return read_document(document, manuscripts, editors, manuscript, editor);
}

size_t read_ids(ondemand::document& document) {
    std::vector<Entity> entities;
    std::vector<Ref> refs;
    auto entity = [](ondemand::value value) {
        return read_resource<Entity>(
            value,
            [](Entity& e, std::string_view name, ondemand::value v) {
                if (name == "label") e.label = string_of(v);
                else if (name == "rank") e.rank = v.get_int64();
            },
            relationships_named<Ref>("owner"));
    };
    auto ref = [](ondemand::value value) {
        return read_resource<Ref>(
            value,
            [](Ref& r, std::string_view name, ondemand::value v) {
                if (name == "label") r.label = string_of(v);
            },
            no_relationships);
    };
    return read_document(document, entities, refs, entity, ref);
}

using ShapeReader = size_t (*)(ondemand::document&);

ShapeReader reader_for(const std::string& shape) {
    if (shape == "unicode") return read_unicode;
    if (shape == "numbers") return read_numbers;
    if (shape == "tiny") return read_tiny;
    if (shape == "long-strings") return read_long_strings;
    if (shape == "ids") return read_ids;
    return nullptr;
}

// ---------------------------------------------------------------------------------------------

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

void report(const char* mode, size_t bytes, const std::vector<double>& seconds) {
    double m = median(seconds);
    std::printf("%s %zu %zu %.9f %.2f\n", mode, bytes, seconds.size(), m, m > 0 ? double(bytes) / 1e6 / m : 0.0);
}

template <class Body>
std::vector<double> time_runs(int runs, Body body) {
    std::vector<double> seconds;
    for (int run = 0; run < runs; run++) {
        auto start = std::chrono::steady_clock::now();
        body();
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return seconds;
}

int usage() {
    std::fprintf(stderr, "usage: simdjson_bench [--runs N | --once] [--mode dom|ondemand] [--shape SHAPE] FILE\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    int runs = 5;
    std::string mode, shape, file;
    for (int i = 1; i < argc; i++) {
        std::string argument = argv[i];
        if (argument == "--implementation") {
            std::printf("%s\n", get_active_implementation()->name().c_str());
            return 0;
        }
        if (argument == "--once") runs = 1;
        else if (argument == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
        else if (argument == "--mode" && i + 1 < argc) mode = argv[++i];
        else if (argument == "--shape" && i + 1 < argc) shape = argv[++i];
        else if (!argument.empty() && argument[0] != '-' && file.empty()) file = argument;
        else return usage();
    }
    if (file.empty() || runs < 1) return usage();
    ShapeReader read = reader_for(shape);
    if (mode == "ondemand" && read == nullptr) {
        std::fprintf(stderr, "simdjson_bench: --mode ondemand needs --shape with a corpus shape\n");
        return 2;
    }
    padded_string json;
    if (auto error = padded_string::load(file).get(json)) {
        std::fprintf(stderr, "simdjson_bench: cannot read %s: %s\n", file.c_str(), error_message(error));
        return 2;
    }
    try {
        if (mode.empty() || mode == "dom") {
            dom::parser parser;
            size_t elements = 0;
            auto seconds = time_runs(runs, [&] {
                dom::element root = parser.parse(json);
                elements += root.is_object() ? 1 : 0;
            });
            if (elements == 0) throw std::runtime_error("not an object");
            report("dom", json.size(), seconds);
        }
        if ((mode.empty() && read != nullptr) || mode == "ondemand") {
            ondemand::parser parser;
            size_t primaries = 0;
            auto seconds = time_runs(runs, [&] {
                ondemand::document document = parser.iterate(json);
                primaries += read(document);
            });
            report("ondemand", json.size(), seconds);
            if (primaries == 0 && json.size() > 64) std::fprintf(stderr, "simdjson_bench: no primary resources\n");
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "simdjson_bench: %s: %s\n", file.c_str(), error.what());
        return 1;
    }
    return 0;
}
