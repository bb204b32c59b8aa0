public class Crash {
  public static void main(String[] args) throws Exception {
    try {
      throw new java.io.IOException("connection reset");
    } catch (java.io.IOException e) {
      throw new IllegalStateException("the vehicle lookup failed", e);
    }
  }
}
