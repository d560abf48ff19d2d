import ArgumentParser
import Foundation
import NavServer
import NavWire

/// `stackcast replay FILE`: runs a recording headless and prints every frame's hash and the
/// final navigation state; with `--check`, compares each hash with the recorded one.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recorded session headless: print each frame's hash and the final state.",
        discussion: """
            FILE is a recording that `stackcast serve --record DIR` wrote (docs/recording.md). The \
            session's scene is rebuilt and every recorded input applied at its recorded time on the \
            virtual clock, with no server and no sockets. Prints one line per frame (seq, scene time \
            in seconds, hash), then the navigation state at the end as `query state` reports it. \
            With --check, each hash is compared with the one the server recorded: exit status 1 at \
            the first frame that differs, which is named. Exit status 2 for a file that is not a \
            recording.
            """
    )

    @Argument(help: "The recording (a .jsonl file from the record folder).")
    var file: String

    @Flag(help: "Compare every frame's hash with the recorded one; exit 1 at the first difference.")
    var check = false

    @Flag(help: "Print only the result: no line per frame.")
    var quiet = false

    func run() throws {
        let recording: Recording
        do {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            recording = try Recording(parsing: text)
        } catch let error as RecordingError {
            fail("\(file): \(error)", status: 2)
        } catch {
            fail("\(file): cannot read: \(error.localizedDescription)", status: 2)
        }
        var frames = 0, unhashed = 0
        var mismatch: Replay.Frame?
        let replay: Replay
        do {
            replay = try Replay(recording)
            while let frame = try replay.nextFrame() {
                frames += 1
                if frame.recordedHash == nil { unhashed += 1 }
                if !quiet {
                    print("frame \(frame.frame.seq)\(frame.remade ? " (remade)" : "") t=\(frame.frame.time) hash=\(frame.hash)")
                }
                if check, !frame.matches {
                    mismatch = frame
                    break
                }
            }
        } catch {
            fail("\(file): \(error)", status: 2)
        }
        if let mismatch {
            let frame = mismatch.frame
            fail(
                "\(file): frame \(frame.seq) (line \(mismatch.line), t=\(frame.time) s) differs: recorded hash \(mismatch.recordedHash ?? "none"), replay made \(mismatch.hash)",
                status: 1)
        }
        print("state \(replay.scene.state.map { JSONWriter.write($0.json) } ?? "null")")
        let header = recording.header
        // A state file's frames carry no hash (docs/recording.md): there is nothing to compare.
        let checked = unhashed == 0 ? ", every hash as recorded" : ", \(frames - unhashed) hashes as recorded, \(unhashed) frames not hashed (a state file)"
        print("\(frames) frames of \(header.app) session \(header.name)\(check ? checked : "")")
    }

    private func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("stackcast replay: \(message)\n".utf8))
        Foundation.exit(status)
    }
}
