package dev.skillport.loader.resolve;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * Tarjan's strongly connected components, iterative so that a long dependency chain cannot overflow
 * the stack. Components come out dependencies first: a component is emitted after every component
 * it has an edge to.
 */
final class StronglyConnected {
  private StronglyConnected() {}

  /**
   * @param edges {@code edges.get(v)} are the nodes {@code v} has an edge to
   */
  static List<List<Integer>> components(List<List<Integer>> edges) {
    int n = edges.size();
    int[] index = new int[n];
    int[] low = new int[n];
    boolean[] onStack = new boolean[n];
    Arrays.fill(index, -1);
    Deque<Integer> stack = new ArrayDeque<>();
    List<List<Integer>> out = new ArrayList<>();
    int counter = 0;
    // Each call frame is {node, position of the next edge to follow}.
    Deque<int[]> calls = new ArrayDeque<>();
    for (int start = 0; start < n; start++) {
      if (index[start] >= 0) {
        continue;
      }
      calls.push(new int[] {start, 0});
      index[start] = counter;
      low[start] = counter;
      counter++;
      stack.push(start);
      onStack[start] = true;
      while (!calls.isEmpty()) {
        int[] frame = calls.peek();
        int v = frame[0];
        List<Integer> next = edges.get(v);
        if (frame[1] < next.size()) {
          int w = next.get(frame[1]++);
          if (index[w] < 0) {
            index[w] = counter;
            low[w] = counter;
            counter++;
            stack.push(w);
            onStack[w] = true;
            calls.push(new int[] {w, 0});
          } else if (onStack[w]) {
            low[v] = Math.min(low[v], index[w]);
          }
          continue;
        }
        calls.pop();
        if (!calls.isEmpty()) {
          int parent = calls.peek()[0];
          low[parent] = Math.min(low[parent], low[v]);
        }
        if (low[v] == index[v]) {
          List<Integer> component = new ArrayList<>();
          int w;
          do {
            w = stack.pop();
            onStack[w] = false;
            component.add(w);
          } while (w != v);
          component.sort(null);
          out.add(component);
        }
      }
    }
    return out;
  }
}
