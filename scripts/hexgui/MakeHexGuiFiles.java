// Writes the HexGui test corpus of tests/hex/data/hexgui/ with HexGui's own SGF writer.
//
// HexGui is built outside the repository from its public source (see
// scripts/hexgui/README.md); this program only builds game trees with HexGui's classes
// (Node, Move, HexPoint, GameInfo) the way HexGui's editor does when a user sets up
// stones, plays, swaps, resigns or starts a variation, and saves each with
// hexgui.sgf.SgfWriter, so the files are exactly what HexGui writes.

import hexgui.game.GameInfo;
import hexgui.game.Node;
import hexgui.hex.HexColor;
import hexgui.hex.HexPoint;
import hexgui.hex.Move;
import hexgui.sgf.SgfWriter;

import java.awt.Dimension;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;

public final class MakeHexGuiFiles {
    private static Node play(Node at, HexColor colour, String point) {
        Node child = new Node(new Move(HexPoint.get(point), colour));
        at.addChild(child);
        return child;
    }

    private static Node setup(Node at, String[] black, String[] white, HexColor toMove) {
        Node child = new Node();
        for (String p : black) child.addSetup(HexColor.BLACK, HexPoint.get(p));
        for (String p : white) child.addSetup(HexColor.WHITE, HexPoint.get(p));
        if (toMove != null) child.setPlayerToMove(toMove);
        at.addChild(child);
        return child;
    }

    private static void save(File folder, String name, Node root, int size) throws IOException {
        GameInfo info = new GameInfo();
        info.setBoardSize(new Dimension(size, size));
        new SgfWriter(new FileOutputStream(new File(folder, name)), root, info);
    }

    public static void main(String[] args) throws IOException {
        File folder = new File(args[0]);
        folder.mkdirs();
        HexColor b = HexColor.BLACK, w = HexColor.WHITE;

        Node root = new Node();  // a puzzle: stones set up, white to move
        setup(root, new String[] {"e2", "e3", "c4", "d5", "d6"},
              new String[] {"d3", "d4", "e4", "c5"}, w);
        save(folder, "setup-puzzle.sgf", root, 7);

        root = new Node();  // a game played on from a setup
        Node at = setup(root, new String[] {"b2", "c6", "f3"}, new String[] {"e5", "b4", "d2"}, w);
        at = play(at, w, "d4");
        play(at, b, "c5");
        save(folder, "setup-then-moves.sgf", root, 7);

        root = new Node();  // the swap: black d4, white swaps, white c5, black e4
        at = play(root, b, "d4");
        at = play(at, w, "swap-pieces");
        at = play(at, w, "c5");
        play(at, b, "e4");
        save(folder, "swap.sgf", root, 7);

        root = new Node();  // an off-centre first stone swapped
        at = play(root, b, "b3");
        at = play(at, w, "swap-pieces");
        play(at, w, "d4");
        save(folder, "swap-off-centre.sgf", root, 5);

        root = new Node();  // two variations after black's first stone
        at = play(root, b, "c3");
        Node first = play(at, w, "b2");
        play(first, b, "d4");
        Node second = play(at, w, "d2");
        play(second, b, "b4");
        save(folder, "variations.sgf", root, 5);

        root = new Node();  // a game that ends by resignation
        at = play(root, b, "b2");
        at = play(at, w, "a3");
        play(at, w, "resign");
        save(folder, "resign.sgf", root, 3);

        root = new Node();  // a template: any stones, no side to move given
        setup(root, new String[] {"f8", "g8", "h8"},
              new String[] {"d9", "i9", "d10", "h10", "d11", "h11"}, null);
        save(folder, "template-no-pl.sgf", root, 11);
    }
}
