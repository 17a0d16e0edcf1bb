extension ResourceShape {
    /// Works out the shape of `model` by running its `init(from:)` against a probing decoder.
    ///
    /// ```swift
    /// let shape = ResourceShape(of: Article.self)
    /// for finding in shape.findings { print(finding) }
    /// ```
    ///
    /// Never fails: what cannot be described is ``ValueShape/Kind/opaque`` or missing, and
    /// ``findings`` says why.
    ///
    /// - Parameter model: The model type.
    /// - Complexity: One run of the model's initializer, more when it rejects a sample and is run
    ///   again with other samples (bounded in total); each attribute type is probed once per run.
    public init<Model: JSONAPIResource & Decodable>(of model: Model.Type) {
        let probe = ShapeProbe(building: [ObjectIdentifier(Model.self)])
        var built: (recorder: ResourceRecorder, findings: [ShapeFinding])?
        var failed: [(recorder: ResourceRecorder, findings: [ShapeFinding])] = []
        var stopped: (any Error)?
        do {
            try probe.withVariants {
                probe.findings = []
                let recorder = ResourceRecorder(probe: probe, resourceType: Model.resourceType)
                do {
                    _ = try Model(from: ResourceProbeDecoder(recorder: recorder))
                } catch {
                    failed.append((recorder, probe.findings))
                    throw error
                }
                built = (recorder, probe.findings)
            }
        } catch {
            stopped = error
        }
        // Without a run that finished, the one that read the most keys says the most.
        let kept =
            built ?? failed.max { $0.recorder.reads.count < $1.recorder.reads.count }
            ?? (ResourceRecorder(probe: probe, resourceType: Model.resourceType), [])
        var findings = kept.findings
        if let stopped {
            findings.append(
                ShapeFinding(
                    .initializerStopped, path: [],
                    message:
                        "\(Model.self)'s initializer threw on every set of sample values (\(stopped)); members it reads after that point are not described"
                ))
        }
        // Finishing notes findings of its own (parts of relationships never read).
        probe.findings = []
        let attributes = kept.recorder.finishedAttributes()
        let relationships = kept.recorder.finishedRelationships()
        findings += probe.findings
        self.init(
            typeName: String(describing: Model.self), resourceType: Model.resourceType, id: kept.recorder.id,
            readsLocalID: kept.recorder.readsLocalID, attributes: attributes, relationships: relationships,
            meta: kept.recorder.meta, links: kept.recorder.links, findings: findings)
        self.findings += ShapeRules.findings(in: self)
    }
}
